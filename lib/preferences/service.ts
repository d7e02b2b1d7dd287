/** The caller's e-mail preferences (getEmailPreferences / updateEmailPreferences). */
import { getPreferences, setPreferences } from '#lib/db/preferences.ts';
import { NotFound } from '#lib/errors.ts';
import { type EmailPreferences, withDefaults } from '#lib/values/preferences.ts';

export async function getEmailPreferences(userId: string): Promise<EmailPreferences> {
  const stored = await getPreferences(userId);
  if (!stored) throw new NotFound('No such user.');
  return withDefaults(stored);
}

export async function updateEmailPreferences(
  userId: string,
  change: Partial<EmailPreferences>,
): Promise<EmailPreferences> {
  const stored = await setPreferences(userId, change);
  if (!stored) throw new NotFound('No such user.');
  return withDefaults(stored);
}
