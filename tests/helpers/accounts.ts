/**
 * Account factories for tests of every area. They go through the accounts domain functions (the
 * same code the endpoints run), not raw puts, and skip only the e-mail round trip.
 *
 *   const { user, token } = await createConfirmedUser();                    // a student
 *   const admin = await createConfirmedUser({ permissionType: 1 });         // an admin
 *   const seller = await createConfirmedUser({ firstName: 'Ada' });
 */
import { randomBytes } from 'node:crypto';
import { issueSession } from '#lib/accounts/login.ts';
import type { SignupInput, User } from '#lib/accounts/schemas.ts';
import { confirmSignup, createPendingSignup } from '#lib/accounts/signup.ts';
import { userKey } from '#lib/db/keys.ts';
import type { UserRecord } from '#lib/db/records.ts';
import { setPermissionType } from '#lib/db/users.ts';
import { sendMail } from '#lib/mail/send.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { UpdateCommand } from '#lib/table/commands.ts';
import { type SesMessage, sentEmails, waitForEmails } from './e2e.ts';
import { deliverOutbox, StreamReader } from './stream.ts';

/** A fresh `.edu` address nobody else uses (safe on the shared e2e table). */
export function uniqueEmail(prefix = 'student'): string {
  return `${prefix}-${randomBytes(6).toString('hex')}@test-uni.edu`;
}

export const DEFAULT_PASSWORD = 'correct horse battery staple';

/** A valid sign-up body with a unique address; override any field. */
export function makeSignup(overrides: Partial<SignupInput> = {}): SignupInput {
  return {
    emailAddress: uniqueEmail(),
    password: DEFAULT_PASSWORD,
    firstName: 'Jamie',
    lastName: 'Rivera',
    university: 'University of Testing',
    campusMailbox: 'Box 1234',
    paymentUsername: '@jamie-pays',
    ...overrides,
  };
}

export interface TestAccount {
  user: User;
  /** a valid bearer token */
  token: string;
  password: string;
  record: UserRecord;
}

/**
 * A confirmed user and a bearer token, quickly: pending sign-up -> confirm -> session.
 * `permissionType` 1 makes an admin, 2 an owner.
 */
export async function createConfirmedUser(
  options: Partial<SignupInput> & { permissionType?: 0 | 1 | 2 } = {},
): Promise<TestAccount> {
  const { permissionType, ...overrides } = options;
  const input = makeSignup(overrides);
  let record = await confirmSignup(await createPendingSignup(input), input.password);
  if (permissionType !== undefined && permissionType !== record.permissionType) {
    const updated = await setPermissionType(record.id, permissionType);
    if (!updated) throw new Error('user vanished while setting its role');
    record = updated;
  }
  const session = await issueSession(record);
  return { user: session.user, token: session.token, password: input.password, record };
}

/** Two days before now (ISO): an account created then is established (its reports count). */
export const twoDaysAgo = (): string => new Date(Date.now() - 48 * 3600_000).toISOString();

/**
 * Makes an account two days old, as if it had signed up then (its reports count towards hiding a
 * book: lib/moderation/reporters.ts). Test set-up only: the service never changes `createdAt`.
 */
export async function ageAccount(userId: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: userKey(userId),
      UpdateExpression: 'SET createdAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': twoDaysAgo() },
    }),
  );
}

const TOKEN = '([A-Za-z0-9_-]{43})';

/** The confirmation link in a confirmation e-mail (its plain-text part). */
export function confirmationLinkIn(mail: SesMessage): string {
  const match = new RegExp(`(https?://\\S+/api/auth/confirm/${TOKEN})`).exec(mail.body.text ?? '');
  if (!match?.[1]) throw new Error(`no confirmation link in e-mail "${mail.subject}"`);
  return match[1];
}

/** The token of a confirmation or reset e-mail. */
export function emailTokenIn(mail: SesMessage): string {
  const match = new RegExp(`(?:/api/auth/confirm/|token=)${TOKEN}`).exec(mail.body.text ?? '');
  if (!match?.[1]) throw new Error(`no token in e-mail "${mail.subject}"`);
  return match[1];
}

/**
 * Every e-mail to `to` (subject matching) but a marker sent now, read once the marker has arrived.
 * The handlers answer only after SES accepted their e-mails, so by then everything an earlier
 * request sent is in the store: a test of "sends nothing" or "sends three" waits on the marker, not
 * on a sleep.
 */
export async function emailsBeforeMarker(to: string, subject: RegExp = /./): Promise<SesMessage[]> {
  const marker = `Test marker ${randomBytes(6).toString('hex')}`;
  await sendMail({ to, subject: marker, text: marker, html: `<p>${marker}</p>` });
  await waitForEmails(to, 1, new RegExp(`^${marker}$`));
  return (await sentEmails()).filter(
    (m) => m.destination.to.includes(to) && m.subject !== marker && subject.test(m.subject),
  );
}

let outboxReader: StreamReader | undefined;

/**
 * Sends what the e-mail outbox owes so far, as its consumer would: account e-mails are queued there
 * (lib/outbox/queue.ts) and written when sent. Each test file has its own table, so this sends only
 * that file's messages, each `deliveries` times (at-least-once delivery). Returns how many ready
 * messages it saw.
 */
export async function sendQueuedMail(deliveries = 1): Promise<number> {
  outboxReader ??= new StreamReader();
  return deliverOutbox(outboxReader, deliveries);
}
