/**
 * Sending e-mail through SES v2 `SendEmail` (the SES emulator locally). Every message has a
 * plain-text and an HTML part and comes from MAIL_FROM. Callers that must not send twice (the
 * stream consumer) use a deterministic idempotency record before calling this; this module only sends.
 *
 * An address SES reported as hard-bouncing or complaining (lib/mail/feedback.ts) gets nothing more:
 * sending to it is skipped and says so ('suppressed'). On AWS every message goes through the stage's
 * configuration set (MAIL_CONFIGURATION_SET), which publishes those reports.
 *
 * A non-essential e-mail (matches, purchase progress, listing notices) gives `unsubscribeUrl`: the
 * message then carries `List-Unsubscribe` and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`
 * (RFC 8058, sent as `Content.Simple.Headers`) and a visible unsubscribe link at its end.
 */
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { clientOptions, emulatorCredentials } from '#lib/aws/client-options.ts';
import { config } from '#lib/config.ts';
import { getSuppression } from '#lib/db/suppressions.ts';
import { logger } from '#lib/logger.ts';
import { countEvent } from '#lib/metrics.ts';

let client: SESv2Client | undefined;
/** The SES client, built on the first e-mail (not at module load), then kept for the container. */
const ses = (): SESv2Client =>
  (client ??= new SESv2Client({
    ...clientOptions,
    region: config.AWS_REGION,
    ...(config.SES_ENDPOINT ? { endpoint: config.SES_ENDPOINT, credentials: emulatorCredentials } : {}),
  }));

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** the one-click unsubscribe link of a non-essential e-mail (absent for essential ones) */
  unsubscribeUrl?: string;
}

export type SendResult = 'sent' | 'suppressed';

/** The unsubscribe headers (RFC 2369, RFC 8058) of a non-essential e-mail. Pure. */
export function unsubscribeHeaders(url: string): { Name: string; Value: string }[] {
  return [
    { Name: 'List-Unsubscribe', Value: `<${url}>` },
    { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' },
  ];
}

/** The message as sent: the visible unsubscribe link appended when there is one. Pure. */
export function withUnsubscribeFooter(mail: Mail): Mail {
  if (!mail.unsubscribeUrl) return mail;
  const url = mail.unsubscribeUrl;
  return {
    ...mail,
    text: `${mail.text}\n\n--\nDo not want these e-mails? Unsubscribe: ${url}`,
    html: `${mail.html}\n<hr><p style="font-size:small">Do not want these e-mails? <a href="${escapeHtml(url)}">Unsubscribe</a></p>`,
  };
}

export async function sendMail(input: Mail): Promise<SendResult> {
  const suppressed = await getSuppression(input.to);
  if (suppressed) {
    logger.info('mail: not sent, address suppressed', { reason: suppressed.reason });
    return 'suppressed';
  }
  const mail = withUnsubscribeFooter(input);
  try {
    await ses().send(
      new SendEmailCommand({
        FromEmailAddress: config.MAIL_FROM,
        ...(config.MAIL_CONFIGURATION_SET ? { ConfigurationSetName: config.MAIL_CONFIGURATION_SET } : {}),
        Destination: { ToAddresses: [mail.to] },
        Content: {
          Simple: {
            Subject: { Data: mail.subject, Charset: 'UTF-8' },
            Body: {
              Text: { Data: mail.text, Charset: 'UTF-8' },
              Html: { Data: mail.html, Charset: 'UTF-8' },
            },
            ...(mail.unsubscribeUrl ? { Headers: unsubscribeHeaders(mail.unsubscribeUrl) } : {}),
          },
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
