import type { SNSEvent } from 'aws-lambda';
import { recordFeedback } from '#lib/mail/feedback.ts';

/**
 * SES bounce and complaint reports (the stage's configuration set publishes them to an SNS topic):
 * a hard bounce or a complaint suppresses the address (lib/mail/feedback.ts). A failure throws, so
 * SNS retries the delivery; recording a suppression twice changes nothing.
 */
export const handler = async (event: SNSEvent) => {
  let suppressed = 0;
  for (const record of event.Records) suppressed += await recordFeedback(record.Sns.Message);
  return { suppressed };
};
