/**
 * Conversations between buyer and seller: one thread per pair of students (whatever the book), the
 * first message asked about a book (askSeller), later ones in the thread (sendMessage), the caller's
 * list with unread counts, a thread paged with an ETag so an open thread polls for one GetItem, and
 * blocking. Rules here; keys and transactions in lib/db/conversations.ts. docs/conversations.md.
 */

import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import { takeAttempt } from '#lib/accounts/throttle.ts';
import { newAuditRecord } from '#lib/db/audit.ts';
import { getBook } from '#lib/db/books.ts';
import {
  appendMessage,
  type ConversationRecord,
  conversationIdOf,
  deleteBlock,
  fileMessageReport,
  getConversation,
  getMessage,
  getMessageReport,
  type InboxBook,
  listInbox,
  listMessageReports,
  listMessages,
  MAX_BLOCKS,
  type MessageRecord,
  type MessageRefusal,
  markInboxRead,
  putBlock,
  putReadAudit,
  resolveMessageReportRecord,
} from '#lib/db/conversations.ts';
import { type BookRecord, BookStatus, isSold } from '#lib/db/records.ts';
import { getUserListingInfo, getUsersById } from '#lib/db/users.ts';
import { Conflict, Forbidden, NotFound } from '#lib/errors.ts';
import type { Page } from '#lib/table/page.ts';
import { apiPhotos } from '#lib/values/photos.ts';
import type * as z from '#lib/zod.ts';
import type {
  AdminThread,
  AskSellerBody,
  ConversationSummary,
  Message,
  MessageBuyerBody,
  MessagesQuery,
  ReportMessageBody,
  ResolveMessageReportBody,
  SendMessageBody,
  Thread,
} from './schemas.ts';

/** Per user: 20 new conversations a day and 60 messages an hour (the throttle windows of lib/accounts). */
export const CONVERSATION_LIMITS = {
  newConversations: { action: 'conversation-new', limit: 20, windowSeconds: 24 * 3600 },
  messages: { action: 'message-sent', limit: 60, windowSeconds: 3600 },
} as const;

export const CANNOT_MESSAGE = "You can't message this person.";

const noSuchBook = () => new NotFound('No such book.');
const noSuchConversation = () => new NotFound('No such conversation.');

/** The caller's side of a conversation (404 for anyone else's). */
function sidesOf(conversation: ConversationRecord | null, callerId: string) {
  if (!conversation?.participants.includes(callerId)) throw noSuchConversation();
  const otherId = conversation.participants.find((p) => p !== callerId) ?? callerId;
  return {
    me: { id: callerId, firstName: conversation.names[callerId] ?? '' },
    other: { id: otherId, firstName: conversation.names[otherId] ?? '' },
  };
}

/** A stored message as every reader gets it (the admin's too); `toMessage` adds whose it is. */
const messageFields = (m: MessageRecord): Omit<Message, 'mine'> => ({
  id: m.id,
  senderId: m.senderId,
  text: m.text,
  at: m.at,
  ...(m.bookId ? { bookId: m.bookId } : {}),
  ...(m.bookName ? { bookName: m.bookName } : {}),
  ...(m.handover ? { handover: m.handover } : {}),
});

const toMessage = (m: MessageRecord, callerId: string): Message => ({
  ...messageFields(m),
  mine: m.senderId === callerId,
});

const refusal = (why: MessageRefusal) => {
  if (why === 'blocked') return new Forbidden(CANNOT_MESSAGE, 'BLOCKED');
  if (why === 'sender') return new Forbidden('A suspended account cannot send messages.', 'SUSPENDED');
  return new Conflict('This person has left Campus Books.', undefined, 'RECIPIENT_GONE');
};

/** Writes one message after the caller's hourly allowance is taken (429 beyond it). */
async function send(
  conversationId: string,
  sender: { id: string; firstName: string },
  recipient: { id: string; firstName: string },
  text: string,
  now: Date,
  book?: InboxBook,
): Promise<{ conversationId: string; message: Message }> {
  await takeAttempt(CONVERSATION_LIMITS.messages, sender.id, now);
  const message = {
    id: ulid(now.getTime()),
    text,
    at: now.toISOString(),
    ...(book ? { bookId: book.id, bookName: book.name } : {}),
  };
  const outcome = await appendMessage({
    conversationId,
    sender,
    recipient,
    message,
    ...(book ? { book } : {}),
  });
  if (!outcome.ok) throw refusal(outcome.why);
  return {
    conversationId,
    message: toMessage({ type: 'message', conversationId, senderId: sender.id, ...message }, sender.id),
  };
}

/**
 * The caller's one conversation with `otherId`, a side of `book` (its seller or its buyer), started
 * on first use (one of the caller's new conversations of the day) and continued after, the message
 * tagged with the book. On a new conversation the seller's first name is the book's and the other
 * side's is read from their profile.
 */
async function writeAboutBook(
  callerId: string,
  book: BookRecord,
  otherId: string,
  text: string,
  now: Date,
): Promise<{ conversationId: string; message: Message }> {
  const conversationId = conversationIdOf(callerId, otherId);
  const existing = await getConversation(conversationId);
  let sides: ReturnType<typeof sidesOf>;
  if (existing) {
    sides = sidesOf(existing, callerId);
  } else {
    await takeAttempt(CONVERSATION_LIMITS.newConversations, callerId, now);
    const buyerSide = callerId === book.ownerId ? otherId : callerId;
    const buyerSideName = (await getUserListingInfo(buyerSide))?.firstName ?? '';
    const nameOf = (id: string) => (id === book.ownerId ? book.ownerFirstName : buyerSideName);
    sides = {
      me: { id: callerId, firstName: nameOf(callerId) },
      other: { id: otherId, firstName: nameOf(otherId) },
    };
  }
  const first = book.photos?.[0];
  const about: InboxBook = { id: book.id, name: book.name, ...(first ? { photoId: first.id } : {}) };
  return send(conversationId, sides.me, sides.other, text, now, about);
}

/**
 * askSeller: the caller's one conversation with the seller of a listed book (or of a book the
 * caller bought), started on first use and continued after, the message tagged with the book.
 * 404 for the caller's own book, a hidden, unlisted or unknown one.
 */
export async function askSeller(callerId: string, body: z.output<typeof AskSellerBody>, now = new Date()) {
  const book = await getBook(body.bookId);
  if (!book || book.hidden === true || book.ownerId === callerId) throw noSuchBook();
  const boughtByCaller = book.buyerId === callerId && book.status !== BookStatus.Listed;
  if (book.status !== BookStatus.Listed && !boughtByCaller) throw noSuchBook();
  return writeAboutBook(callerId, book, book.ownerId, body.text, now);
}

/**
 * messageBuyer: the seller's side of askSeller, so the seller of a bought book can write first
 * (about the hand-over, say) instead of waiting for the buyer. The same one conversation of the
 * two, the message tagged with the book. 404 unless the caller sells the book and someone has
 * bought it (from checkout until it is paid).
 */
export async function messageBuyer(
  callerId: string,
  body: z.output<typeof MessageBuyerBody>,
  now = new Date(),
) {
  const book = await getBook(body.bookId);
  if (!book || book.ownerId !== callerId || !isSold(book.status) || !book.buyerId) throw noSuchBook();
  return writeAboutBook(callerId, book, book.buyerId, body.text, now);
}

/** sendMessage: a message in one of the caller's conversations (404 for anyone else's). */
export async function sendMessage(
  callerId: string,
  body: z.output<typeof SendMessageBody>,
  now = new Date(),
) {
  const { me, other } = sidesOf(await getConversation(body.conversationId), callerId);
  return send(body.conversationId, me, other, body.text, now);
}

/** The caller's conversations, newest activity first, a page at a time (one Query). */
export async function listConversations(
  callerId: string,
  query: { limit: number; cursor?: string | undefined },
): Promise<Page<ConversationSummary>> {
  const page = await listInbox(callerId, query.limit, query.cursor);
  return {
    next: page.next,
    items: page.items.map((e) => ({
      id: e.conversationId,
      other: { id: e.otherId, firstName: e.otherFirstName },
      book: e.book
        ? {
            id: e.book.id,
            name: e.book.name,
            photo: e.book.photoId ? (apiPhotos(e.book.id, [{ id: e.book.photoId }])[0] ?? null) : null,
          }
        : null,
      lastMessage: {
        id: e.lastMessage.id,
        text: e.lastMessage.text,
        at: e.lastMessage.at,
        mine: e.lastMessage.senderId === callerId,
      },
      unread: e.unread,
      lastActivityAt: e.lastActivityAt,
    })),
  };
}

/** The ETag of one page of a thread: its conversation's version and which page it is. */
const etagOf = (conversation: ConversationRecord, query: z.output<typeof MessagesQuery>): string =>
  `"${conversation.version}-${createHash('sha256')
    .update(`${query.limit}\u0000${query.cursor ?? ''}`)
    .digest('base64url')
    .slice(0, 12)}"`;

/** Whether an If-None-Match header names this ETag (or `*`). */
const matches = (header: string | undefined, etag: string): boolean =>
  (header ?? '').split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });

export type ThreadAnswer =
  | { notModified: true; etag: string }
  | { notModified: false; etag: string; thread: Thread; next: string | null };

/**
 * One page of one of the caller's threads (404 for anyone else's), messages oldest to newest, the
 * `next` page older. Unchanged since `ifNoneMatch`: answered from the conversation's one
 * strongly consistent GetItem, without reading the messages.
 */
export async function readThread(
  callerId: string,
  conversationId: string,
  query: z.output<typeof MessagesQuery>,
  ifNoneMatch: string | undefined,
): Promise<ThreadAnswer> {
  const conversation = await getConversation(conversationId);
  const { other } = sidesOf(conversation, callerId);
  const etag = etagOf(conversation as ConversationRecord, query);
  if (matches(ifNoneMatch, etag)) return { notModified: true, etag };
  const page = await listMessages(conversationId, query.limit, query.cursor);
  const messages = page.items.map((m) => toMessage(m, callerId)).reverse();
  return { notModified: false, etag, thread: { id: conversationId, other, messages }, next: page.next };
}

/** markConversationRead: the caller's unread count of the conversation back to 0 (404 for anyone else's). */
export async function markConversationRead(callerId: string, conversationId: string, now = new Date()) {
  if (!(await markInboxRead(callerId, conversationId, now.toISOString()))) throw noSuchConversation();
  return { conversationId, unread: 0 as const };
}

/**
 * blockUser / unblockUser: no messages and no new conversation between the two while blocked, and
 * the blocked user's listings are left out of the blocker's browsing and search (from their next
 * request: the sign-in check reads the profile's `blockedIds`).
 */
export async function setBlocked(callerId: string, userId: string, blocked: boolean, now = new Date()) {
  if (userId === callerId) throw new Conflict('You cannot block yourself.', undefined, 'SELF');
  if (blocked) {
    if (!(await getUserListingInfo(userId))) throw new NotFound('No such user.');
    if (!(await putBlock(callerId, userId, now.toISOString()))) {
      throw new Conflict(
        `You can block up to ${MAX_BLOCKS} people. Unblock someone first.`,
        undefined,
        'TOO_MANY_BLOCKS',
      );
    }
  } else {
    await deleteBlock(callerId, userId);
  }
  return { userId, blocked };
}

/**
 * An admin's read of any conversation (GET /api/dashboard/getConversation): every read is written
 * to the audit log first, so there is no read without its entry. 404 for an unknown conversation.
 */
export async function adminReadThread(
  adminId: string,
  conversationId: string,
  query: z.output<typeof MessagesQuery>,
  now = new Date(),
): Promise<{ thread: z.output<typeof AdminThread>; next: string | null }> {
  const conversation = await getConversation(conversationId);
  if (!conversation) throw noSuchConversation();
  await putReadAudit(
    newAuditRecord({
      at: now.toISOString(),
      actor: adminId,
      action: 'readConversation',
      target: { kind: 'conversation', id: conversationId },
      before: {},
      after: {},
      reason: null,
    }),
  );
  const page = await listMessages(conversationId, query.limit, query.cursor);
  const messages = page.items.map(messageFields).reverse();
  const participants = conversation.participants.map((id) => ({
    id,
    firstName: conversation.names[id] ?? '',
  }));
  return { thread: { id: conversationId, participants, messages }, next: page.next };
}

/**
 * reportMessage: a participant reports a message of the other side; it goes to the admins' queue
 * of reported messages (with the message as it was) and the audit log. 404 for a conversation or
 * message the caller cannot see, 409 for the caller's own message; a second report by the same
 * user changes nothing.
 */
export async function reportMessage(
  callerId: string,
  body: z.output<typeof ReportMessageBody>,
  now = new Date(),
): Promise<{ messageId: string; reported: true }> {
  sidesOf(await getConversation(body.conversationId), callerId);
  const message = await getMessage(body.conversationId, body.messageId);
  if (!message) throw new NotFound('No such message.');
  if (message.senderId === callerId)
    throw new Conflict('You cannot report your own message.', undefined, 'OWN_MESSAGE');
  const at = now.toISOString();
  await fileMessageReport(
    {
      type: 'messageReport',
      conversationId: body.conversationId,
      messageId: body.messageId,
      reporterId: callerId,
      reason: body.reason,
      details: body.details ?? null,
      at,
      message: { senderId: message.senderId, text: message.text, at: message.at },
    },
    newAuditRecord({
      at,
      actor: callerId,
      action: 'reportMessage',
      target: { kind: 'conversation', id: body.conversationId },
      before: {},
      after: { messageId: body.messageId, reason: body.reason },
      reason: body.details ?? null,
    }),
  );
  return { messageId: body.messageId, reported: true };
}

/**
 * resolveMessageReport (admin): closes one report of a message, `dismiss` or `handled`; it leaves the
 * queue, the report keeps who closed it how, and the audit log says so (one transaction). 404 for no
 * such report, 409 `ALREADY_RESOLVED` when it was closed before (by anyone).
 */
export async function resolveMessageReport(
  adminId: string,
  body: z.output<typeof ResolveMessageReportBody>,
  now = new Date(),
): Promise<{ messageId: string; action: 'dismiss' | 'handled'; resolved: true }> {
  const report = await getMessageReport(body.conversationId, body.messageId, body.reporterId);
  if (!report) throw new NotFound('No such report.', 'REPORT_NOT_FOUND');
  const already = () =>
    new Conflict('An admin has already closed this report.', undefined, 'ALREADY_RESOLVED');
  if (report.resolution) throw already();
  const at = now.toISOString();
  const outcome = await resolveMessageReportRecord(
    report,
    { action: body.action, by: adminId, at },
    newAuditRecord({
      at,
      actor: adminId,
      action: 'resolveMessageReport',
      target: { kind: 'conversation', id: body.conversationId },
      before: { messageId: body.messageId, reporterId: body.reporterId, reason: report.reason },
      after: { resolution: body.action },
      reason: null,
    }),
  );
  if (outcome === 'already') throw already();
  return { messageId: body.messageId, action: body.action, resolved: true };
}

/** The admins' queue of reported messages, newest first, naming sender and reporter (one BatchGet). */
export async function getMessageReports(query: { limit: number; cursor?: string | undefined }) {
  const page = await listMessageReports(query.limit, query.cursor);
  const users = await getUsersById(page.items.flatMap((r) => [r.reporterId, r.message.senderId]));
  const party = (id: string) => {
    const u = users.get(id);
    return u ? { id, firstName: u.firstName, lastName: u.lastName, emailAddress: u.emailAddress } : null;
  };
  return {
    next: page.next,
    items: page.items.map(({ conversationId, messageId, reporterId, reason, details, at, message }) => ({
      conversationId,
      messageId,
      reporterId,
      sender: party(message.senderId),
      reporter: party(reporterId),
      reason,
      details,
      at,
      message,
    })),
  };
}
