/**
 * E-mail preferences: what a user wants to receive beyond the essential e-mails (confirmation and
 * password e-mails are always sent). Defaults: every match e-mailed, purchase progress and listing
 * notices on.
 */
import * as z from '#lib/zod.ts';

/** The categories of non-essential e-mail, each with its own unsubscribe link. */
export const EMAIL_CATEGORIES = ['matches', 'purchases', 'listings', 'messages', 'saved'] as const;
export type EmailCategory = (typeof EMAIL_CATEGORIES)[number];

export const MatchesMode = z.enum(['each', 'daily', 'off']);
export type MatchesMode = z.infer<typeof MatchesMode>;

export const EmailPreferences = z
  .strictObject({
    matches: MatchesMode.check(z.describe('each: one e-mail per match; daily: one digest a day; off: none')),
    purchases: z.boolean().check(z.describe('e-mails about the progress of purchases and sales')),
    listings: z.boolean().check(z.describe('e-mails about the caller’s listings (unlisted books)')),
    messages: z
      .boolean()
      .check(
        z.describe(
          'an e-mail when someone writes in a conversation (at most one per conversation per 15 minutes while unread)',
        ),
      ),
    saved: z
      .boolean()
      .check(z.describe('e-mails about books the caller saved: a lower price, sold, or no longer listed')),
  })
  .check(
    z.meta({
      id: 'EmailPreferences',
      examples: [{ matches: 'each', purchases: true, listings: true, messages: true, saved: true }],
    }),
  );
export type EmailPreferences = z.infer<typeof EmailPreferences>;

export const DEFAULT_EMAIL_PREFERENCES: EmailPreferences = {
  matches: 'each',
  purchases: true,
  listings: true,
  messages: true,
  saved: true,
};

export const UpdateEmailPreferencesBody = z
  .strictObject({
    matches: z.optional(MatchesMode),
    purchases: z.optional(z.boolean()),
    listings: z.optional(z.boolean()),
    messages: z.optional(z.boolean()),
    saved: z.optional(z.boolean()),
  })
  .check(
    z.refine(
      (b) => Object.keys(b).length > 0,
      'Give at least one of matches, purchases, listings, messages, saved.',
    ),
  );

/** The stored preferences (possibly partial or absent) with the defaults filled in. Pure. */
export function withDefaults(stored: Partial<EmailPreferences> | undefined): EmailPreferences {
  return {
    matches: stored?.matches ?? DEFAULT_EMAIL_PREFERENCES.matches,
    purchases: stored?.purchases ?? DEFAULT_EMAIL_PREFERENCES.purchases,
    listings: stored?.listings ?? DEFAULT_EMAIL_PREFERENCES.listings,
    messages: stored?.messages ?? DEFAULT_EMAIL_PREFERENCES.messages,
    saved: stored?.saved ?? DEFAULT_EMAIL_PREFERENCES.saved,
  };
}

/** Whether a per-event e-mail of this category goes out under these preferences. Pure. */
export function sendsEach(prefs: EmailPreferences, category: EmailCategory): boolean {
  if (category === 'matches') return prefs.matches === 'each';
  return prefs[category];
}

/** The change that turns a category off. */
export const OFF: Record<EmailCategory, Partial<EmailPreferences>> = {
  matches: { matches: 'off' },
  purchases: { purchases: false },
  listings: { listings: false },
  messages: { messages: false },
  saved: { saved: false },
};
