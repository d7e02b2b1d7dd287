/** The words of every notification and its e-mail. Pure. */

import type { NotificationKind } from '#lib/db/notifications.ts';
import { noticeMail } from '#lib/mail/notice.ts';
import type { Mail } from '#lib/mail/send.ts';

export interface BookFacts {
  name: string;
  course: string;
  ISBN: string | null;
}

/** The words of a notification, and its e-mail given the first name and the link to its page. */
type Content = { message: string; email: (firstName: string, link: string) => Omit<Mail, 'to'> };

/** The notice e-mail (lib/mail/notice.ts): the message and one link, labelled, to the page it talks about. */
const mail = (subject: string, message: string, linkLabel: string) => (firstName: string, link: string) =>
  noticeMail({ subject, message, linkLabel, link })(firstName);

const describe = (b: BookFacts) => `"${b.name}" (${b.course}${b.ISBN ? `, ISBN ${b.ISBN}` : ''})`;

/** A listed book matches one of the user's requests. */
export function matchContent(book: BookFacts): Content {
  const message = `A book you asked for is listed: ${describe(book)}.`;
  return {
    message,
    email: mail(`Match for your book request: ${book.name}`, message, 'See the book'),
  };
}

/**
 * The buyer bought a book one of their requests asked for, so the request is closed
 * (lib/matching/answered.ts). In the app only: the purchase's own notices reach them by e-mail.
 */
export function fulfilledContent(requested: string, book: BookFacts): Content {
  const message = `You bought ${describe(book)}, so your request for "${requested}" is closed. If you need another copy, ask for it again.`;
  return { message, email: mail(`Your book request is closed: ${requested}`, message, 'See your requests') };
}

/** The kinds a book's status change makes (lib/notifications/processor.ts). */
export type StatusKind = Extract<NotificationKind, 'sold' | 'verified' | 'delivered' | 'cancelled'>;

/** The content of a status-change notification for one party. */
export function statusContent(
  kind: StatusKind,
  role: 'seller' | 'buyer',
  book: BookFacts,
  /** why a purchase was cancelled, when someone said */
  reason: string | null = null,
  /** a cancel's outcome: relisted (else it stays unlisted: a suspended seller), refunded (the buyer was charged) */
  cancel: { relisted: boolean; refunded: boolean } = { relisted: true, refunded: false },
): Content {
  const d = describe(book);
  const text: Record<typeof kind, Record<typeof role, [string, string]>> = {
    sold: {
      seller: [
        `Your book was bought`,
        `Your book ${d} was bought. Agree a time and place for the hand-over with the buyer on the order page.`,
      ],
      buyer: [`You bought a book`, `You bought ${d}.`],
    },
    verified: {
      seller: [
        `Your sold book was checked`,
        `Your book ${d} was checked at the hand-over and its buyer charged. You are paid once it is handed over.`,
      ],
      buyer: [`Your book was checked`, `The book you bought, ${d}, was checked and your payment was taken.`],
    },
    delivered: {
      seller: [`You were paid for your book`, `Your book ${d} was handed over and you have been paid.`],
      buyer: [`Your book was handed over`, `The book you bought, ${d}, was handed over to you.`],
    },
    cancelled: {
      seller: [
        `A purchase was cancelled`,
        `The purchase of your book ${d} was cancelled; ${cancel.relisted ? 'it is listed again' : 'it stays unlisted'}.`,
      ],
      buyer: [
        `Your purchase was cancelled`,
        `Your purchase of ${d} was cancelled.${cancel.refunded ? ' The payment taken for it is refunded.' : ' You were not charged for it.'}`,
      ],
    },
  };
  const [subject, said] = text[kind][role];
  const message = reason ? `${said} Reason: ${reason}` : said;
  // both open the order: the buyer's whole, the seller's part of it (lib/notifications/links.ts)
  return {
    message,
    email: mail(`${subject}: ${book.name}`, message, role === 'buyer' ? 'See your order' : 'See the order'),
  };
}

/** What a receipt says about an order: its books as bought, and its total in cents. */
export interface ReceiptFacts {
  books: Array<BookFacts & { priceCents: number }>;
  subtotalCents: number;
  feeCents: number;
  totalCents: number;
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The buyer's receipt at checkout: the books, the total, what happens next. */
export function receiptContent(order: ReceiptFacts): Content {
  const count = order.books.length === 1 ? 'a book' : `${order.books.length} books`;
  const next =
    'Next: propose a time to hand over on your order page. An administrator checks each book at the hand-over, and you are charged then.';
  const message = `You ordered ${count} for ${dollars(order.totalCents)}. ${next}`;
  return {
    message,
    email: (firstName, link) =>
      noticeMail({
        subject: `Your receipt: ${count} for ${dollars(order.totalCents)}`,
        message: `Thank you for your order of ${count}:`,
        details: [
          ...order.books.map((b) => `- ${describe(b)}: ${dollars(b.priceCents)}`),
          `Books ${dollars(order.subtotalCents)} + service fee ${dollars(order.feeCents)} = total ${dollars(order.totalCents)}.`,
          next,
        ],
        linkLabel: 'See your order',
        link,
      })(firstName),
  };
}

/** A listed book of the user was unlisted by a moderator, with the reason. */
export function moderationUnlistContent(book: BookFacts, reason: string): Content {
  const message = `Your book ${describe(book)} was unlisted by a moderator. Reason: ${reason}`;
  return { message, email: mail(`Your book was unlisted: ${book.name}`, message, 'See your listings') };
}

/** What happened to a book someone saved. */
export type SavedBookEvent = 'priceDrop' | 'sold' | 'unlisted';

/** A saved book's price dropped (old and new price in dollars, as text), or it was sold or unlisted. */
export function savedBookContent(
  event: SavedBookEvent,
  book: BookFacts,
  prices: { from: string; to: string },
): Content {
  const d = describe(book);
  const text: Record<SavedBookEvent, [string, string]> = {
    priceDrop: [
      `A book you saved is cheaper`,
      `A book you saved, ${d}, now costs ${prices.to} (was ${prices.from}).`,
    ],
    sold: [`A book you saved was sold`, `A book you saved, ${d}, was sold to someone else.`],
    unlisted: [`A book you saved is no longer listed`, `A book you saved, ${d}, is no longer listed.`],
  };
  const [subject, message] = text[event];
  return { message, email: mail(`${subject}: ${book.name}`, message, 'See the book') };
}
