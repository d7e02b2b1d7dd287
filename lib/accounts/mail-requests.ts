/**
 * Account e-mails asked for on public routes (password reset, confirmation resend) are stored as a
 * request and sent by the stream consumer, so the route does the same work for an address with an
 * account and for one without (issue 20, item 3): its answer and its timing tell nothing.
 */
import { ulid } from 'ulid';
import { type MailRequestKind, putMailRequest } from '#lib/db/mail-requests.ts';

const REQUEST_TTL_SECONDS = 86_400;

/** Stores the request (one PutItem, whatever the address). */
export async function queueAccountMail(
  kind: MailRequestKind,
  emailNormalised: string,
  now: Date,
): Promise<void> {
  await putMailRequest({
    type: 'mailRequest',
    id: ulid(now.getTime()),
    kind,
    emailNormalised,
    requestedAt: now.toISOString(),
    state: 'pending',
    ttl: Math.ceil(now.getTime() / 1000) + REQUEST_TTL_SECONDS,
  });
}
