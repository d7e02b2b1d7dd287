/**
 * The e-mail outbox (`OUTBOX#<id>` / `OUTBOX`): a message the service owes a user, written in the
 * same transaction as the change it tells about, so a crash or a timeout after the change cannot
 * lose it. The outbox consumer (functions/streams/outbox.ts) sends it; the sweeper
 * (functions/scheduled/sweep-outbox.ts) wakes what the consumer has not finished.
 *
 * States, each move a conditional write (so a redelivered stream record or two sweepers act once):
 *   open     being written (e.g. the unlisting run still adds books to it)
 *   ready    complete: the consumer claims it on this stream record
 *   sending  claimed by one consumer (a lease: a crashed claim is woken again when `due` passes)
 *   retry    the send failed: waits until `due`, then the sweeper makes it ready again
 *   sent     done (or nothing to send: the recipient is gone or opted out); leaves the index, ttl
 *   failed   still unsent after MAX_AGE: kept under OUTBOX#FAILED for an operator (an alarm fires)
 * While owed, the message sits on gsi1 `OUTBOX` sorted by `due`, the time the sweeper must look at
 * it if nothing else has moved it on.
 */

import { db, TABLE } from '#lib/table/client.ts';
import { QueryCommand } from '#lib/table/commands.ts';
import type { TransactItem } from '#lib/table/transact.ts';
import { putIf, updateIf } from '#lib/table/write-if.ts';
import { expiresAfter } from '#lib/values/expiry.ts';
import type { EmailCategory } from '#lib/values/preferences.ts';
import { INDEX, OUTBOX_DUE_PK, outboxDueIndex, outboxFailedIndex, outboxKey } from './keys.ts';

export type OutboxState = 'open' | 'ready' | 'sending' | 'retry' | 'sent' | 'failed';

/** A book as the unlisting notice names it. */
export interface NoticeBook {
  id: string;
  name: string;
  edition: number;
  course: string;
  /** when it was listed (ISO-8601) */
  date: string;
}

/** A written e-mail waiting for its recipient's address (kind 'mail'). */
export interface OutboxMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * An account e-mail (kind 'account'), written only when it is sent, so no link's token is ever
 * stored: the sender issues the token then and stores its hash, as everywhere else (issue 20).
 *  - `confirm-signup`: the pending sign-up of `tokenHash` gets a fresh link;
 *  - `resend-confirmation`: the address's newest pending sign-up gets a fresh link, or its account
 *    the "you already have an account" e-mail;
 *  - `password-reset`: the address's account gets a reset link;
 *  - `existing-account`: the address's account gets the "you already have an account" e-mail;
 *  - `login-unlock`: the address's account, locked for unknown clients, gets an unlock link.
 * Whatever the address turns out to be, nothing is sent for an address with neither.
 */
export interface AccountMailRequest {
  action: 'confirm-signup' | 'resend-confirmation' | 'password-reset' | 'existing-account' | 'login-unlock';
  /** the address as normalised (the uniqueness key form) */
  address: string;
  /** confirm-signup: the SHA-256 of the pending sign-up's current token */
  tokenHash?: string;
}

/** OUTBOX#<id> / OUTBOX. `kind` says which renderer writes the e-mail (lib/outbox). */
export interface OutboxRecord {
  type: 'outbox';
  id: string;
  /**
   * 'unlisted': a run's unlisting notice; 'mail': an e-mail written when queued (notifications);
   * 'account': an account e-mail, written when sent
   */
  kind: 'unlisted' | 'mail' | 'account';
  /** kinds 'unlisted' and 'mail': the user the message is for (address and preferences read at send time) */
  recipientId?: string;
  /**
   * kind 'mail' to an account being deleted: the address captured before the deletion, used instead
   * of the recipient's (whose profile is gone by the time it is sent); removed once sent
   */
  address?: string;
  /** kind 'account': what to send to which address */
  account?: AccountMailRequest;
  state: OutboxState;
  createdAt: string;
  /** when the sweeper looks at it next, unless the message moves on first */
  due: string;
  attempts: number;
  /** kind 'unlisted': the books unlisted in one run */
  books?: NoticeBook[];
  /** kind 'mail': the e-mail, and the preference it falls under (absent: essential) */
  mail?: OutboxMail;
  category?: EmailCategory;
  lastError?: string;
  outcome?: 'sent' | 'suppressed' | 'skipped';
  sentAt?: string;
  ttl?: number;
}

const SENT_TTL_SECONDS = 30 * 86_400;

/**
 * Adds books to one run's notice for one owner, creating it (state open) on the first page: an
 * Update for the page's TransactWriteItems. `due` is set once, on creation.
 */
export function appendNoticeBooksOp(
  id: string,
  recipientId: string,
  books: NoticeBook[],
  createdAt: string,
  due: string,
): TransactItem {
  const index = outboxDueIndex(due, id);
  return {
    Update: {
      TableName: TABLE,
      Key: outboxKey(id),
      UpdateExpression:
        'SET #type = :type, #id = :id, #kind = :kind, #recipient = :recipient, #state = if_not_exists(#state, :open), ' +
        '#createdAt = if_not_exists(#createdAt, :createdAt), #due = if_not_exists(#due, :due), ' +
        '#attempts = if_not_exists(#attempts, :zero), #books = list_append(if_not_exists(#books, :empty), :books), ' +
        'gsi1pk = if_not_exists(gsi1pk, :gsi1pk), gsi1sk = if_not_exists(gsi1sk, :gsi1sk)',
      ExpressionAttributeNames: {
        '#type': 'type',
        '#id': 'id',
        '#kind': 'kind',
        '#recipient': 'recipientId',
        '#state': 'state',
        '#createdAt': 'createdAt',
        '#due': 'due',
        '#attempts': 'attempts',
        '#books': 'books',
      },
      ExpressionAttributeValues: {
        ':type': 'outbox',
        ':id': id,
        ':kind': 'unlisted',
        ':recipient': recipientId,
        ':open': 'open',
        ':createdAt': createdAt,
        ':due': due,
        ':zero': 0,
        ':empty': [],
        ':books': books,
        ':gsi1pk': index.gsi1pk,
        ':gsi1sk': index.gsi1sk,
      },
    },
  };
}

type ReadyMessage = Pick<
  OutboxRecord,
  'id' | 'kind' | 'recipientId' | 'address' | 'mail' | 'category' | 'account'
>;

/** The conditional Put of a message ready to send (refused when a message with its id exists). */
function readyPut(message: ReadyMessage, createdAt: string, due: string) {
  const record: OutboxRecord = {
    type: 'outbox',
    ...message,
    state: 'ready',
    createdAt,
    due,
    attempts: 0,
  };
  return {
    TableName: TABLE,
    Item: { ...outboxKey(message.id), ...outboxDueIndex(due, message.id), ...record },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/**
 * Queues a message, ready to send (one conditional PutItem): a message with this id that exists
 * already is left as it is, so queueing again (a redelivered stream record) sends once.
 */
export function putReady(message: ReadyMessage, createdAt: string, due: string): Promise<boolean> {
  return putIf(readyPut(message, createdAt, due));
}

/** The same message as a transaction item, written with the change it tells about. */
export const readyPutOp = (message: ReadyMessage, createdAt: string, due: string): TransactItem => ({
  Put: readyPut(message, createdAt, due),
});

/**
 * Moves a message from one state to another if it is still in `from` (and, when given, still due
 * at `dueWas`); false when someone else moved it first. `set` and `remove` change other attributes.
 */
async function move(
  id: string,
  from: OutboxState,
  to: OutboxState,
  changes: {
    due?: string;
    dueWas?: string;
    set?: Record<string, unknown>;
    remove?: string[];
    failed?: boolean;
  },
): Promise<boolean> {
  const names: Record<string, string> = { '#state': 'state' };
  const values: Record<string, unknown> = { ':from': from, ':to': to };
  const sets = ['#state = :to'];
  const removes = [...(changes.remove ?? [])];
  for (const [i, [name, value]] of Object.entries(changes.set ?? {}).entries()) {
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
    sets.push(`#s${i} = :s${i}`);
  }
  if (changes.due !== undefined) {
    const index = changes.failed ? outboxFailedIndex(changes.due, id) : outboxDueIndex(changes.due, id);
    names['#due'] = 'due';
    values[':due'] = changes.due;
    values[':gsi1pk'] = index.gsi1pk;
    values[':gsi1sk'] = index.gsi1sk;
    sets.push('#due = :due', 'gsi1pk = :gsi1pk', 'gsi1sk = :gsi1sk');
  }
  let condition = '#state = :from';
  if (changes.dueWas !== undefined) {
    names['#due'] = 'due';
    values[':dueWas'] = changes.dueWas;
    condition += ' AND #due = :dueWas';
  }
  return updateIf({
    TableName: TABLE,
    Key: outboxKey(id),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

/** open -> ready: the message is complete; its stream record wakes the outbox consumer. */
export const markReady = (id: string, due: string): Promise<boolean> => move(id, 'open', 'ready', { due });

/** ready -> sending, one attempt more; false when another delivery claimed it first. */
export async function claim(id: string, leaseUntil: string, attempts: number): Promise<boolean> {
  return move(id, 'ready', 'sending', { due: leaseUntil, set: { attempts } });
}

/** sending -> sent: leaves the index, forgets a captured address; the item expires after 30 days. */
export const markSent = (
  id: string,
  outcome: 'sent' | 'suppressed' | 'skipped',
  at: Date,
): Promise<boolean> =>
  move(id, 'sending', 'sent', {
    set: { outcome, sentAt: at.toISOString(), ttl: expiresAfter(at, SENT_TTL_SECONDS) },
    remove: ['gsi1pk', 'gsi1sk', 'address'],
  });

/** sending -> retry: the send failed; the sweeper makes it ready again at `due`. */
export const markRetry = (id: string, due: string, error: string): Promise<boolean> =>
  move(id, 'sending', 'retry', { due, set: { lastError: error.slice(0, 500) } });

/** A due message (open, ready, sending or retry, as found at `dueWas`) made ready again by the sweeper. */
export const wake = (id: string, from: OutboxState, dueWas: string, due: string): Promise<boolean> =>
  move(id, from, 'ready', { due, dueWas });

/** A due message too old to keep trying: kept under OUTBOX#FAILED. */
export const markFailed = (id: string, from: OutboxState, dueWas: string, at: string): Promise<boolean> =>
  move(id, from, 'failed', { due: at, dueWas, failed: true });

/** Owed messages due at or before `now`, the longest overdue first (one Query of gsi1). */
export async function listDue(now: string, limit: number): Promise<OutboxRecord[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: INDEX.gsi1,
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :now',
      ExpressionAttributeValues: { ':pk': OUTBOX_DUE_PK, ':now': `${now}#~` },
      Limit: limit,
    }),
  );
  return (out.Items ?? []) as OutboxRecord[];
}
