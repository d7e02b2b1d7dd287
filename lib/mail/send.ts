/**
 * Sending e-mail through SES (the SES emulator locally). Every message has a plain-text and an
 * HTML part and comes from MAIL_FROM. Callers that must not send twice (the stream consumer) use a
 * deterministic idempotency record before calling this; this module only sends.
 */
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { config } from '#lib/config.ts';

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

export async function sendMail(mail: Mail): Promise<void> {
  await ses.send(
    new SendEmailCommand({
      Source: config.MAIL_FROM,
      Destination: { ToAddresses: [mail.to] },
      Message: {
        Subject: { Data: mail.subject, Charset: 'UTF-8' },
        Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
      },
    }),
  );
}

/** Escapes text for inclusion in an HTML e-mail. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
