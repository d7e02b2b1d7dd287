import { http } from '#lib/http/index.ts';
import { updateEmailPreferences } from '#lib/preferences/service.ts';
import { EmailPreferences, UpdateEmailPreferencesBody } from '#lib/values/preferences.ts';

/** POST /api/user/updateEmailPreferences: any of matches, purchases, listings; answers all three. */
export const handler = http(
  {
    body: UpdateEmailPreferencesBody,
    response: EmailPreferences,
    errors: [404],
    summary: "Change the caller's e-mail preferences",
  },
  async ({ body, principal }) => updateEmailPreferences(principal.userId, body),
);
