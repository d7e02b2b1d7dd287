/**
 * Sending e-mail through SES (the SES emulator locally). Every message has a plain-text and an
 * HTML part and comes from MAIL_FROM. Callers that must not send twice (the stream consumer) use a
 * deterministic idempotency record before calling this; this module only sends. An address SES
 * reported as hard-bouncing or complaining (lib/mail/feedback.ts) gets nothing more: sending to it
 * is skipped and says so ('suppressed'). On AWS every message goes through the stage's
 * configuration set (MAIL_CONFIGURATION_SET), which publishes those reports.
 */
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { config } from '#lib/config.ts';
import { getSuppression } from '#lib/db/suppressions.ts';
import { logger } from '#lib/logger.ts';
import { countEvent } from '#lib/metrics.ts';

const ses = new SESClient({
  region: config.AWS_REGION,
  ...(config.SES_ENDPOINT
    ? { endpoint: config.SES_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
    : {}),
});

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export type SendResult = 'sent' | 'suppressed';

export async function sendMail(mail: Mail): Promise<SendResult> {
  const suppressed = await getSuppression(mail.to);
  if (suppressed) {
    logger.info('mail: not sent, address suppressed', { reason: suppressed.reason });
    return 'suppressed';
  }
  try {
    await ses.send(
      new SendEmailCommand({
        Source: config.MAIL_FROM,
        ...(config.MAIL_CONFIGURATION_SET ? { ConfigurationSetName: config.MAIL_CONFIGURATION_SET } : {}),
        Destination: { ToAddresses: [mail.to] },
        Message: {
          Subject: { Data: mail.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
        },
      }),
    );
  } catch (err) {
    countEvent('EmailsFailed');
    throw err;
  }
  countEvent('EmailsSent');
  return 'sent';
}

/** Escapes text for inclusion in an HTML e-mail. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
