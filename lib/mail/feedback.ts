/**
 * SES bounce and complaint feedback (configuration set -> SNS -> functions/mail/feedback.ts).
 * A permanent ("hard") bounce or a complaint suppresses the address: lib/mail/send.ts sends
 * nothing more to it. Transient bounces (mailbox full, ...) suppress nothing; SES retries those.
 */

import { putSuppression, type Suppression } from '#lib/db/suppressions.ts';
import { logger } from '#lib/logger.ts';
import * as z from '#lib/zod.ts';

const Recipient = z.object({ emailAddress: z.string().check(z.minLength(3)) });

/** The parts of an SES event-publishing record we act on (other fields are ignored). */
export const SesFeedback = z.object({
  eventType: z.string(),
  mail: z.object({ messageId: z.string() }),
  bounce: z.optional(z.object({ bounceType: z.string(), bouncedRecipients: z.array(Recipient) })),
  complaint: z.optional(z.object({ complainedRecipients: z.array(Recipient) })),
});
export type SesFeedback = z.infer<typeof SesFeedback>;

/** The suppressions one feedback record calls for (none for transient bounces and other events). */
export function suppressionsFor(feedback: SesFeedback, now: Date): Suppression[] {
  const at = now.toISOString();
  const id = feedback.mail.messageId;
  if (feedback.eventType === 'Bounce' && feedback.bounce?.bounceType === 'Permanent') {
    return feedback.bounce.bouncedRecipients.map((r) => ({
      emailAddress: r.emailAddress,
      reason: 'bounce' as const,
      suppressedAt: at,
      feedbackId: id,
    }));
  }
  if (feedback.eventType === 'Complaint' && feedback.complaint) {
    return feedback.complaint.complainedRecipients.map((r) => ({
      emailAddress: r.emailAddress,
      reason: 'complaint' as const,
      suppressedAt: at,
      feedbackId: id,
    }));
  }
  return [];
}

/** Handles one SNS message body; returns how many addresses were suppressed. */
export async function recordFeedback(message: string, now: Date = new Date()): Promise<number> {
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch {
    logger.warn('mail feedback: not JSON, ignored');
    return 0;
  }
  const parsed = SesFeedback.safeParse(json);
  if (!parsed.success) {
    logger.warn('mail feedback: not an SES event, ignored', { issues: parsed.error.issues.length });
    return 0;
  }
  const suppressions = suppressionsFor(parsed.data, now);
  for (const s of suppressions) {
    await putSuppression(s);
    logger.info('mail feedback: address suppressed', { reason: s.reason, feedbackId: s.feedbackId });
  }
  return suppressions.length;
}
