/** Request and response schemas of the conversation routes. */

import { BookId } from '#lib/cart/schemas.ts';
import { MESSAGE_REPORT_ACTIONS, MESSAGE_REPORT_REASONS } from '#lib/db/conversations.ts';
import { CursorParam } from '#lib/table/cursor.ts';
import { IdOf } from '#lib/values/ids.ts';
import { IntParam } from '#lib/values/params.ts';
import * as z from '#lib/zod.ts';

export const MAX_MESSAGE_CHARS = 2000;

/**
 * A message: 1..2,000 characters (code points), not only blanks; newlines allowed, other control
 * characters refused by the HTTP layer for every field (lib/http/body.ts). Stored as typed.
 */
export const MessageText = z.string().check(
  z.refine((t) => t.trim().length > 0, 'Write a message.'),
  z.refine((t) => Array.from(t).length <= MAX_MESSAGE_CHARS, `At most ${MAX_MESSAGE_CHARS} characters.`),
);

/** A conversation id as clients send it (22 base64url characters). */
export const ConversationId = z.string().check(z.regex(/^[A-Za-z0-9_-]{22}$/, 'Not a conversation id.'));
/** A user id as clients send it. */
export const UserId = IdOf('a user id');

/** A message id as clients send it (a ULID). */
const MessageId = z.string().check(z.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'Not a message id.'));

export const AskSellerBody = z.strictObject({ bookId: BookId, text: MessageText });
/** messageBuyer: the seller of a bought book writes to its buyer (the same fields as askSeller). */
export const MessageBuyerBody = AskSellerBody;
export const SendMessageBody = z.strictObject({ conversationId: ConversationId, text: MessageText });
export const ConversationBody = z.strictObject({ conversationId: ConversationId });
export const ConversationParams = z.strictObject({ conversationId: ConversationId });
export const UserBody = z.strictObject({ userId: UserId });

export const ConversationsQuery = z.strictObject({
  limit: z._default(IntParam(1, 50), 20),
  cursor: z.optional(CursorParam),
});
export const MessagesQuery = z.strictObject({
  limit: z._default(IntParam(1, 100), 50),
  cursor: z.optional(CursorParam),
});

export const Message = z.strictObject({
  id: z.string(),
  /** the sender's id */
  senderId: z.string(),
  /** whether the caller wrote it */
  mine: z.boolean(),
  text: z.string(),
  at: z.iso.datetime(),
  /** the book it asks about (messages sent with askSeller) */
  bookId: z.optional(z.string()),
  /** that book's title when it was asked about */
  bookName: z.optional(z.string()),
  /**
   * a hand-over step this message records: its order, its proposal, and proposed (pending), agreed
   * or declined; the seller whose books it covers, who proposed it, the slot and its point as they
   * were at that step (answerHandover takes `proposalId`; only the latest step of a hand-over is
   * current)
   */
  handover: z.optional(
    z.strictObject({
      orderId: z.string(),
      proposalId: z.string(),
      state: z.enum(['pending', 'agreed', 'declined']),
      sellerId: z.string(),
      proposedBy: z.string(),
      at: z.iso.datetime(),
      point: z.strictObject({ name: z.string(), location: z.string(), timeZone: z.string() }),
    }),
  ),
});
export type Message = z.infer<typeof Message>;

/** What sendMessage and askSeller answer: the message, in its conversation. */
export const SentMessage = z.strictObject({ conversationId: z.string(), message: Message });

const Other = z.strictObject({ id: z.string(), firstName: z.string() });
const Photo = z.strictObject({
  id: z.string(),
  url: z.string(),
  mediumUrl: z.string(),
  thumbnailUrl: z.string(),
});

/** One conversation in the caller's list. */
export const ConversationSummary = z.strictObject({
  id: z.string(),
  other: Other,
  /** the book last asked about, with its first photo */
  book: z.nullable(z.strictObject({ id: z.string(), name: z.string(), photo: z.nullable(Photo) })),
  lastMessage: z.strictObject({ id: z.string(), text: z.string(), at: z.iso.datetime(), mine: z.boolean() }),
  unread: z.number().check(z.int(), z.gte(0)),
  lastActivityAt: z.iso.datetime(),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

/** One page of a thread: its messages oldest to newest; `next` opens the older ones. */
export const Thread = z.strictObject({
  id: z.string(),
  other: Other,
  messages: z.array(Message),
});
export type Thread = z.infer<typeof Thread>;

export const ReadResult = z.strictObject({ conversationId: z.string(), unread: z.literal(0) });
export const BlockResult = z.strictObject({ userId: z.string(), blocked: z.boolean() });

/** A thread as an admin reads it (GET /api/dashboard/getConversation): both sides, every message's sender. */
export const AdminThread = z.strictObject({
  id: z.string(),
  participants: z.array(Other),
  messages: z.array(z.omit(Message, { mine: true })),
});

export const ReportMessageBody = z.strictObject({
  conversationId: ConversationId,
  messageId: MessageId,
  reason: z.enum(MESSAGE_REPORT_REASONS),
  details: z.optional(z.string().check(z.trim(), z.maxLength(1000))),
});
export const ReportMessageAnswer = z.strictObject({ messageId: z.string(), reported: z.literal(true) });

/**
 * An admin closes a report of a message: `dismiss` (nothing wrong with it) or `handled` (acted on,
 * e.g. the sender suspended: that is its own action). The report leaves the queue either way.
 */
export const ResolveMessageReportBody = z.strictObject({
  conversationId: ConversationId,
  messageId: MessageId,
  reporterId: UserId,
  action: z.enum(MESSAGE_REPORT_ACTIONS, 'Choose dismiss or handled.'),
});
export const ResolvedMessageReport = z.strictObject({
  messageId: z.string(),
  action: z.enum(MESSAGE_REPORT_ACTIONS),
  resolved: z.literal(true),
});

/** One report in the admins' queue of reported messages, with the message as it was reported. */
/** Who sent or reported a message, for the admins (null once the account was deleted). */
const ReportParty = z.nullable(
  z.strictObject({ id: z.string(), firstName: z.string(), lastName: z.string(), emailAddress: z.string() }),
);
export const MessageReport = z.strictObject({
  conversationId: z.string(),
  messageId: z.string(),
  reporterId: z.string(),
  sender: ReportParty,
  reporter: ReportParty,
  reason: z.enum(MESSAGE_REPORT_REASONS),
  details: z.nullable(z.string()),
  at: z.iso.datetime(),
  message: z.strictObject({ senderId: z.string(), text: z.string(), at: z.iso.datetime() }),
});
export const ReportsQuery = z.strictObject({
  limit: z._default(IntParam(1, 100), 25),
  cursor: z.optional(CursorParam),
});
