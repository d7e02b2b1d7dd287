/** Suppressed e-mail addresses (hard bounces and complaints reported by SES). */

import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, PutCommand } from '#lib/table/commands.ts';
import { suppressionKey } from './keys.ts';

export type SuppressionReason = 'bounce' | 'complaint';

export interface Suppression {
  emailAddress: string;
  reason: SuppressionReason;
  suppressedAt: string;
  /** SES's message id of the feedback that caused it */
  feedbackId: string;
}

const normalise = (address: string): string => address.trim().toLowerCase();

/** Records (or refreshes) a suppression; idempotent for redelivered feedback. */
export async function putSuppression(s: Suppression): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...suppressionKey(normalise(s.emailAddress)), type: 'SUPPRESSION', ...s },
    }),
  );
}

export async function getSuppression(address: string): Promise<Suppression | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: suppressionKey(normalise(address)), ConsistentRead: true }),
  );
  if (!out.Item) return null;
  const { emailAddress, reason, suppressedAt, feedbackId } = out.Item as Suppression;
  return { emailAddress, reason, suppressedAt, feedbackId };
}
