/**
 * Conversations repository: one thread per pair of students (a deterministic id), its messages
 * under the conversation's partition in ULID order, and each participant's inbox entry (last
 * activity on gsi1, unread count). A message is one transaction: the message, the conversation's
 * version (the thread's ETag), both inbox entries, and the checks that the sender may write
 * (not suspended, not blocked either way). docs/conversations.md gives the calls of each route.
 */

import { createHash } from 'node:crypto';
import { batchGet } from '#lib/table/batch.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { DeleteCommand, PutCommand } from '#lib/table/commands.ts';
import { getItem } from '#lib/table/items.ts';
import { type Item, indexPartition, indexResume, type Page, queryAll, queryPage } from '#lib/table/page.ts';
import { type TransactOutcome, tag, transactWrite } from '#lib/table/transact.ts';
import { setAttribute, updateIf } from '#lib/table/write-if.ts';
import * as z from '#lib/zod.ts';
import { type AuditRecord, auditPutOp } from './audit.ts';
import {
  blockKey,
  conversationKey,
  conversationMailKey,
  conversationPartition,
  inboxEntryKey,
  inboxIndex,
  inboxPk,
  MESSAGE_REPORTS_PK,
  MESSAGE_SK_PREFIX,
  messageKey,
  messageReportKey,
  messageReportQueueKey,
  userKey,
  userPartition,
} from './keys.ts';

/** The one conversation id of a pair of users, whichever of them starts it. */
export function conversationIdOf(a: string, b: string): string {
  const [first, second] = [a, b].sort();
  return createHash('sha256').update(`${first}\u0000${second}`).digest('base64url').slice(0, 22);
}

/** CONV#<id> / META */
export interface ConversationRecord {
  type: 'conversation';
  id: string;
  /** the two user ids, sorted */
  participants: [string, string];
  /** first names by user id, as they were when the conversation started */
  names: Record<string, string>;
  /** moved by every message: the thread's ETag */
  version: number;
  createdAt: string;
  lastMessageAt: string;
}

/** CONV#<id> / MSG#<ulid> */
export interface MessageRecord {
  type: 'message';
  id: string;
  conversationId: string;
  senderId: string;
  /** stored as typed: shown as text, never as markup */
  text: string;
  /** the book the message was about (askSeller) */
  bookId?: string;
  /** that book's title when it was asked about, so the thread can name it without reading the book */
  bookName?: string;
  /** a hand-over step this message records (lib/handover): the order and the proposal */
  handover?: HandoverTag;
  at: string;
}

/**
 * What a hand-over message of a thread points at: its order, its proposal and the step, with what
 * the thread shows of it (the seller whose books it covers, who proposed it, the slot and the
 * point as copied at that step), so the thread needs no other read to show it.
 */
export interface HandoverTag {
  orderId: string;
  proposalId: string;
  state: 'pending' | 'agreed' | 'declined';
  sellerId: string;
  proposedBy: string;
  at: string;
  point: { name: string; location: string; timeZone: string };
}

/** The book a conversation is about, as its inbox entries show it. */
export interface InboxBook {
  id: string;
  name: string;
  /** the id of its first photo, if it has one */
  photoId?: string;
}

/** USER#<uid> / CONV#<id>, plus inboxIndex(...) */
export interface InboxEntryRecord {
  type: 'inbox';
  conversationId: string;
  userId: string;
  otherId: string;
  otherFirstName: string;
  book?: InboxBook;
  lastMessage: { id: string; text: string; senderId: string; at: string };
  unread: number;
  lastActivityAt: string;
  /** when the user last marked the conversation read */
  readAt?: string;
}

/** The conversation (one strongly consistent GetItem), or null. */
export async function getConversation(conversationId: string): Promise<ConversationRecord | null> {
  const item = await getItem(conversationKey(conversationId));
  return item?.type === 'conversation' ? (item as ConversationRecord) : null;
}

/** The ids among `ids` of conversations that exist (someone wrote): one BatchGetItem, none for no ids. */
export async function existingConversations(ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const items = await batchGet<ConversationRecord>(ids.map(conversationKey));
  return new Set(items.filter((i) => i.type === 'conversation').map((i) => i.id));
}

export interface NewMessage {
  conversationId: string;
  sender: { id: string; firstName: string };
  recipient: { id: string; firstName: string };
  message: {
    id: string;
    text: string;
    at: string;
    bookId?: string;
    bookName?: string;
    handover?: HandoverTag;
  };
  /** the book both inbox entries show from now on (askSeller); absent keeps theirs */
  book?: InboxBook;
}

/** Why a message was not written. */
export type MessageRefusal = 'sender' | 'recipient' | 'blocked';

/** `SET #a = :a, ...` over every attribute (names aliased: several are DynamoDB reserved words). */
const setAll = (values: Record<string, unknown>) => ({
  expression: Object.keys(values)
    .map((k) => `#${k} = :${k}`)
    .join(', '),
  names: Object.fromEntries(Object.keys(values).map((k) => [`#${k}`, k])),
  values: Object.fromEntries(Object.entries(values).map(([k, v]) => [`:${k}`, v])),
});

const inboxUpdate = (
  owner: string,
  other: { id: string; firstName: string },
  m: NewMessage,
  read: boolean,
) => {
  const set = setAll({
    type: 'inbox',
    conversationId: m.conversationId,
    userId: owner,
    otherId: other.id,
    otherFirstName: other.firstName,
    lastMessage: { id: m.message.id, text: m.message.text, senderId: m.sender.id, at: m.message.at },
    lastActivityAt: m.message.at,
    ...inboxIndex(owner, m.message.at, m.conversationId),
    ...(m.book ? { book: m.book } : {}),
    // the sender has read everything up to their own message
    ...(read ? { unread: 0 } : {}),
  });
  return tag('inbox', {
    Update: {
      TableName: TABLE,
      Key: inboxEntryKey(owner, m.conversationId),
      // the recipient has one more to read
      UpdateExpression: read ? `SET ${set.expression}` : `SET ${set.expression} ADD #unread :one`,
      ExpressionAttributeNames: { ...set.names, ...(read ? {} : { '#unread': 'unread' }) },
      ExpressionAttributeValues: { ...set.values, ...(read ? {} : { ':one': 1 }) },
    },
  });
};

const notBlocked = (blocker: string, blocked: string) =>
  tag('blocked', {
    ConditionCheck: {
      TableName: TABLE,
      Key: blockKey(blocker, blocked),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });

/**
 * Writes one message: the message, the conversation (created on its first message, version + 1),
 * both inbox entries, and the checks that the sender exists and is not suspended, the recipient
 * exists, and neither blocked the other. One TransactWriteItems; the refusal names what failed.
 */
export async function appendMessage(
  m: NewMessage,
): Promise<{ ok: true } | { ok: false; why: MessageRefusal }> {
  const participants = [m.sender.id, m.recipient.id].sort();
  const outcome = await transactWrite([
    tag('message', {
      Put: {
        TableName: TABLE,
        Item: {
          ...messageKey(m.conversationId, m.message.id),
          type: 'message',
          id: m.message.id,
          conversationId: m.conversationId,
          senderId: m.sender.id,
          text: m.message.text,
          ...(m.message.bookId ? { bookId: m.message.bookId } : {}),
          ...(m.message.bookName ? { bookName: m.message.bookName } : {}),
          ...(m.message.handover ? { handover: m.message.handover } : {}),
          at: m.message.at,
        } satisfies MessageRecord & Item,
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
    tag('conversation', {
      Update: {
        TableName: TABLE,
        Key: conversationKey(m.conversationId),
        UpdateExpression:
          'SET #type = :type, #id = :id, #p = if_not_exists(#p, :p), #names = if_not_exists(#names, :names), ' +
          '#createdAt = if_not_exists(#createdAt, :at), #lastMessageAt = :at ADD #version :one',
        ExpressionAttributeNames: {
          '#type': 'type',
          '#id': 'id',
          '#p': 'participants',
          '#names': 'names',
          '#createdAt': 'createdAt',
          '#lastMessageAt': 'lastMessageAt',
          '#version': 'version',
        },
        ExpressionAttributeValues: {
          ':type': 'conversation',
          ':id': m.conversationId,
          ':p': participants,
          ':names': { [m.sender.id]: m.sender.firstName, [m.recipient.id]: m.recipient.firstName },
          ':at': m.message.at,
          ':one': 1,
        },
      },
    }),
    inboxUpdate(m.sender.id, m.recipient, m, true),
    inboxUpdate(m.recipient.id, m.sender, m, false),
    tag('sender', {
      ConditionCheck: {
        TableName: TABLE,
        Key: userKey(m.sender.id),
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(suspended) OR suspended <> :true)',
        ExpressionAttributeValues: { ':true': true },
      },
    }),
    tag('recipient', {
      ConditionCheck: {
        TableName: TABLE,
        Key: userKey(m.recipient.id),
        ConditionExpression: 'attribute_exists(pk)',
      },
    }),
    notBlocked(m.sender.id, m.recipient.id),
    notBlocked(m.recipient.id, m.sender.id),
  ]);
  if (outcome.ok) return { ok: true };
  const why = outcome.refused.find((r) => r.code === 'ConditionalCheckFailed')?.tag;
  if (why === 'sender' || why === 'recipient' || why === 'blocked') return { ok: false, why };
  throw new Error(
    `message transaction refused: ${outcome.refused.map((r) => `${r.tag}:${r.code}`).join(', ')}`,
  );
}

/** A position in a conversation's messages: the message's sort key. */
const MessagePosition = z.string().check(z.regex(/^MSG#[0-9A-HJKMNP-TV-Z]{26}$/));

/**
 * A page of a conversation's messages, newest first (one Query); the next page holds older ones.
 * Cursors are bound to the conversation.
 */
export function listMessages(
  conversationId: string,
  limit: number,
  cursor: string | undefined,
): Promise<Page<MessageRecord>> {
  const pk = conversationPartition(conversationId);
  return queryPage(
    {
      scope: `conversation:${conversationId}`,
      position: MessagePosition,
      sortKey: 'sk',
      startKey: (sk) => ({ pk, sk }),
    },
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :msg)',
      ExpressionAttributeValues: { ':pk': pk, ':msg': MESSAGE_SK_PREFIX },
      ScanIndexForward: false,
    },
    limit,
    cursor,
    (i) => (i.type === 'message' ? (i as MessageRecord) : undefined),
  );
}

/** A position in a user's inbox: gsi1sk, `<date>#<conversation id>`. */
const InboxPosition = z
  .string()
  .check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z#[A-Za-z0-9_-]{22}$/));

/** A user's conversations, newest activity first (gsi1 `INBOX#<uid>`, one Query a page). */
export function listInbox(
  userId: string,
  limit: number,
  cursor: string | undefined,
): Promise<Page<InboxEntryRecord>> {
  const pk = inboxPk(userId);
  return queryPage(
    {
      scope: `inbox:${userId}`,
      position: InboxPosition,
      ...indexResume('gsi1', pk, (id) => inboxEntryKey(userId, id)),
    },
    indexPartition('gsi1', pk),
    limit,
    cursor,
    (i) => (i.type === 'inbox' ? (i as InboxEntryRecord) : undefined),
  );
}

/** Sets the user's unread count of the conversation to 0; false when the user has no such entry. */
export function markInboxRead(userId: string, conversationId: string, at: string): Promise<boolean> {
  return updateIf({
    TableName: TABLE,
    Key: inboxEntryKey(userId, conversationId),
    UpdateExpression: 'SET #unread = :zero, #readAt = :at',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#unread': 'unread', '#readAt': 'readAt' },
    ExpressionAttributeValues: { ':zero': 0, ':at': at },
  });
}

/**
 * The most people one user may block. The blocker's profile holds their ids (`blockedIds`, a string
 * set), which the sign-in check reads anyway, so leaving their listings out of browsing and search
 * costs no read; one Query filter takes them all (lib/db/books.ts).
 */
export const MAX_BLOCKS = 100;

/**
 * Records that `blockerId` blocks `blockedId` (idempotent): the block item and the id in the
 * blocker's profile, one transaction. False when the blocker already blocks MAX_BLOCKS others.
 */
export async function putBlock(blockerId: string, blockedId: string, at: string): Promise<boolean> {
  const outcome = await transactWrite([
    tag('block', {
      Update: {
        TableName: TABLE,
        Key: blockKey(blockerId, blockedId),
        UpdateExpression:
          'SET #type = :type, blockerId = :a, blockedId = :b, createdAt = if_not_exists(createdAt, :at)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': 'block', ':a': blockerId, ':b': blockedId, ':at': at },
      },
    }),
    tag('profile', {
      Update: {
        TableName: TABLE,
        Key: userKey(blockerId),
        UpdateExpression: 'ADD blockedIds :ids',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(blockedIds) OR size(blockedIds) < :max OR contains(blockedIds, :b))',
        ExpressionAttributeValues: { ':ids': new Set([blockedId]), ':max': MAX_BLOCKS, ':b': blockedId },
      },
    }),
  ]);
  return outcome.ok;
}

/** Whether `blockerId` blocks `blockedId` (one GetItem of the block item, keys only). */
export async function blocks(blockerId: string, blockedId: string): Promise<boolean> {
  return (await getItem(blockKey(blockerId, blockedId), { eventual: true, projection: 'pk' })) !== undefined;
}

/** Removes the block, if there is one, and the id from the blocker's profile (one transaction). */
export async function deleteBlock(blockerId: string, blockedId: string): Promise<void> {
  await transactWrite([
    tag('block', { Delete: { TableName: TABLE, Key: blockKey(blockerId, blockedId) } }),
    tag('profile', {
      Update: {
        TableName: TABLE,
        Key: userKey(blockerId),
        UpdateExpression: 'DELETE blockedIds :ids',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':ids': new Set([blockedId]) },
      },
    }),
  ]);
}

/** Writes the audit entry of an admin's read of a conversation (before the read it records). */
export async function putReadAudit(entry: AuditRecord): Promise<void> {
  const put = auditPutOp(entry).Put;
  if (!put) throw new Error('an audit entry is a Put');
  await db.send(new PutCommand(put));
}

/** One message of a conversation (strongly consistent GetItem), or null. */
export async function getMessage(conversationId: string, messageId: string): Promise<MessageRecord | null> {
  const item = await getItem(messageKey(conversationId, messageId));
  return item?.type === 'message' ? (item as MessageRecord) : null;
}

export const MESSAGE_REPORT_REASONS = ['spam', 'scam', 'harassment', 'offensive', 'other'] as const;

export const MESSAGE_REPORT_ACTIONS = ['dismiss', 'handled'] as const;

/** How an admin closed a report: kept on the report (the queue entry goes). */
export interface MessageReportResolution {
  action: (typeof MESSAGE_REPORT_ACTIONS)[number];
  by: string;
  at: string;
}

/** A report of a message, as its queue entry holds it (with the message as it was reported). */
export interface MessageReportRecord {
  type: 'messageReport';
  conversationId: string;
  messageId: string;
  reporterId: string;
  reason: (typeof MESSAGE_REPORT_REASONS)[number];
  details: string | null;
  at: string;
  message: { senderId: string; text: string; at: string };
  /** set on the report (never on its queue entry, which goes) once an admin closed it */
  resolution?: MessageReportResolution;
}

/** A report's transaction: `done` when written, 'already' when the report's own condition refused it. */
function reportOutcome<T extends string>(outcome: TransactOutcome, done: T): T | 'already' {
  if (outcome.ok) return done;
  if (outcome.refused.some((r) => r.tag === 'report' && r.code === 'ConditionalCheckFailed'))
    return 'already';
  throw new Error(
    `message report not ${done}: ${outcome.refused.map((r) => `${r.tag}:${r.code}`).join(', ')}`,
  );
}

/**
 * Files the report, its queue entry and its audit entry in one transaction; 'already' when this
 * user had reported this message (nothing written).
 */
export async function fileMessageReport(
  report: MessageReportRecord,
  audit: AuditRecord,
): Promise<'filed' | 'already'> {
  const outcome = await transactWrite([
    tag('report', {
      Put: {
        TableName: TABLE,
        Item: { ...messageReportKey(report.conversationId, report.messageId, report.reporterId), ...report },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
    tag('queue', {
      Put: {
        TableName: TABLE,
        Item: {
          ...messageReportQueueKey(report.at, report.conversationId, report.messageId, report.reporterId),
          ...report,
        },
      },
    }),
    tag('audit', auditPutOp(audit)),
  ]);
  return reportOutcome(outcome, 'filed');
}

/** A message's report by one reporter (strongly consistent GetItem), or null. */
export async function getMessageReport(
  conversationId: string,
  messageId: string,
  reporterId: string,
): Promise<MessageReportRecord | null> {
  const item = await getItem(messageReportKey(conversationId, messageId, reporterId));
  return item?.type === 'messageReport' ? (item as MessageReportRecord) : null;
}

/**
 * Closes a report: the report records its resolution (only while it has none), its queue entry goes
 * and the audit entry is written, in one transaction. 'already' when another admin closed it first
 * (nothing written).
 */
export async function resolveMessageReportRecord(
  report: MessageReportRecord,
  resolution: MessageReportResolution,
  audit: AuditRecord,
): Promise<'resolved' | 'already'> {
  const outcome = await transactWrite([
    tag('report', {
      Update: {
        TableName: TABLE,
        Key: messageReportKey(report.conversationId, report.messageId, report.reporterId),
        UpdateExpression: 'SET resolution = :r',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(resolution)',
        ExpressionAttributeValues: { ':r': resolution },
      },
    }),
    tag('queue', {
      Delete: {
        TableName: TABLE,
        Key: messageReportQueueKey(report.at, report.conversationId, report.messageId, report.reporterId),
      },
    }),
    tag('audit', auditPutOp(audit)),
  ]);
  return reportOutcome(outcome, 'resolved');
}

/** A position in the queue of reported messages: its sort key. */
const ReportPosition = z
  .string()
  .check(z.regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[A-Za-z0-9_-]{22}#[0-9A-Z]{26}#[A-Za-z0-9_-]{1,64}$/));

/** The admins' queue of reported messages, newest first (one Query a page). */
export function listMessageReports(
  limit: number,
  cursor: string | undefined,
): Promise<Page<MessageReportRecord>> {
  return queryPage(
    {
      scope: 'dashboard:message-reports',
      position: ReportPosition,
      sortKey: 'sk',
      startKey: (sk) => ({ pk: MESSAGE_REPORTS_PK, sk }),
    },
    {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': MESSAGE_REPORTS_PK },
      ScanIndexForward: false,
    },
    limit,
    cursor,
    (i) => (i.type === 'messageReport' ? (i as MessageReportRecord) : undefined),
  );
}

/**
 * A deleted account's conversations, a page at a time: in each, the other side's inbox entry and
 * the conversation show the account under `name` from now on, and the account's own inbox entry
 * goes. Each step is idempotent, so a deletion that stopped halfway runs the page again. The
 * number of conversations handled (0: none left).
 */
export async function renameParticipantPage(userId: string, name: string, limit: number): Promise<number> {
  const entries = (await queryAll(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :conv)',
      ExpressionAttributeValues: { ':pk': userPartition(userId), ':conv': 'CONV#' },
      ProjectionExpression: 'conversationId, otherId',
    },
    limit,
  )) as { conversationId: string; otherId: string }[];
  for (const e of entries) {
    await updateIf({
      TableName: TABLE,
      Key: inboxEntryKey(e.otherId, e.conversationId),
      UpdateExpression: 'SET #name = :name',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#name': 'otherFirstName' },
      ExpressionAttributeValues: { ':name': name },
    });
    await updateIf({
      TableName: TABLE,
      Key: conversationKey(e.conversationId),
      UpdateExpression: 'SET #names.#uid = :name',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#names': 'names', '#uid': userId },
      ExpressionAttributeValues: { ':name': name },
    });
    await db.send(new DeleteCommand({ TableName: TABLE, Key: inboxEntryKey(userId, e.conversationId) }));
  }
  return entries.length;
}

/** The user's inbox entry of a conversation (strongly consistent), or null. */
export async function getInboxEntry(
  userId: string,
  conversationId: string,
): Promise<InboxEntryRecord | null> {
  const item = await getItem(inboxEntryKey(userId, conversationId));
  return item?.type === 'inbox' ? (item as InboxEntryRecord) : null;
}

/**
 * Claims the e-mail about a new message in the conversation for the user: true (and the mark moved
 * to `at`) unless they were e-mailed about it after `notBefore` (15 minutes ago) and have not read
 * the conversation since (`readAt`). One conditional UpdateItem, so two messages at once mail once.
 */
export function claimMessageMail(
  userId: string,
  conversationId: string,
  at: string,
  notBefore: string,
  readAt: string | undefined,
): Promise<boolean> {
  return updateIf({
    TableName: TABLE,
    Key: conversationMailKey(userId, conversationId),
    UpdateExpression: 'SET #type = :type, #at = :at',
    ConditionExpression: 'attribute_not_exists(#at) OR #at <= :notBefore OR #at < :readAt',
    ExpressionAttributeNames: { '#type': 'type', '#at': 'at' },
    ExpressionAttributeValues: {
      ':type': 'conversationMail',
      ':at': at,
      ':notBefore': notBefore,
      ':readAt': readAt ?? '',
    },
  });
}

/**
 * Gives an askSeller message written before messages held their book's title that title
 * (scripts/backfill-message-book-names.ts); false when it has one already or is gone.
 */
export const setMessageBookName = (m: MessageRecord, bookName: string): Promise<boolean> =>
  updateIf(
    setAttribute(messageKey(m.conversationId, m.id), 'bookName', bookName, {
      condition: 'attribute_exists(pk) AND attribute_not_exists(#a)',
    }),
  );
