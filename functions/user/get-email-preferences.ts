import { http } from '#lib/http/index.ts';
import { getEmailPreferences } from '#lib/preferences/service.ts';
import { EmailPreferences } from '#lib/values/preferences.ts';

/** GET /api/user/getEmailPreferences: which non-essential e-mails the caller receives. */
export const handler = http(
  { response: EmailPreferences, errors: [404], summary: "The caller's e-mail preferences" },
  async ({ principal }) => getEmailPreferences(principal.userId),
);
