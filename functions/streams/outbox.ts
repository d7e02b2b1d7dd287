import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { accountMail } from '#lib/accounts/mail-processor.ts';
import { unlistedNotice } from '#lib/dashboard/unlisting.ts';
import { withMetrics } from '#lib/metrics.ts';
import { mailRenderer, type OutboxRenderers, outboxProcessor, toRecipient } from '#lib/outbox/outbox.ts';
import { consume } from '#lib/streams/consume.ts';

/** What each kind of outbox message says (lib/db/outbox.ts `kind`). */
export const renderers: OutboxRenderers = {
  unlisted: toRecipient(unlistedNotice),
  mail: mailRenderer,
  account: accountMail,
};

/** The outbox consumer's processors: only the sending of ready outbox messages. */
export const outboxProcessors = [outboxProcessor(renderers)];

/**
 * The table stream's second reader: sends the e-mail outbox's ready messages (lib/outbox/outbox.ts),
 * apart from the main consumer, so SES trouble delays e-mail only.
 */
export const handler = withMetrics(
  (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> =>
    consume(event, context, outboxProcessors, 'outbox'),
);
