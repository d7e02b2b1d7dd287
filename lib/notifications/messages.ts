/** The words of every notification and its e-mail. Pure. */

import type { NotificationKind } from '#lib/db/notifications.ts';
import type { Mail } from '#lib/mail/send.ts';
import { escapeHtml } from '#lib/mail/send.ts';

export interface BookFacts {
  name: string;
  course: string;
  ISBN: string | null;
}

type Content = { message: string; email: (firstName: string) => Omit<Mail, 'to'> };

const mail = (subject: string, lines: string[]) => (firstName: string) => {
  const greeting = firstName ? `Hello ${firstName},` : 'Hello,';
  const all = [greeting, '', ...lines, '', 'Campus Books'];
  return {
    subject,
    text: all.join('\n'),
    html: all.map((l) => (l === '' ? '<br>' : `<p>${escapeHtml(l)}</p>`)).join('\n'),
  };
};

const describe = (b: BookFacts) => `"${b.name}" (${b.course}${b.ISBN ? `, ISBN ${b.ISBN}` : ''})`;

/** A listed book matches one of the user's requests. */
export function matchContent(book: BookFacts): Content {
  const message = `A book you asked for is listed: ${describe(book)}.`;
  return {
    message,
    email: mail(`Match for your book request: ${book.name}`, [message, 'See your matches in the app.']),
  };
}

/** The content of a status-change notification for one party. */
export function statusContent(
  kind: Exclude<NotificationKind, 'match' | 'unlisted' | 'message' | 'handover' | 'saved'>,
  role: 'seller' | 'buyer',
  book: BookFacts,
): Content {
  const d = describe(book);
  const text: Record<typeof kind, Record<typeof role, [string, string]>> = {
    sold: {
      seller: [`Your book was bought`, `Your book ${d} was bought. We will be in touch about the hand-over.`],
      buyer: [`You bought a book`, `You bought ${d}.`],
    },
    verified: {
      seller: [`Your sold book was verified`, `The condition of your book ${d} was verified.`],
      buyer: [`Your book was verified`, `The book you bought, ${d}, was checked and your payment was taken.`],
    },
    delivered: {
      seller: [`You were paid for your book`, `Your book ${d} was delivered and you have been paid.`],
      buyer: [`Your book was delivered`, `The book you bought, ${d}, was delivered.`],
    },
    cancelled: {
      seller: [
        `A purchase was cancelled`,
        `The purchase of your book ${d} was cancelled; it is listed again.`,
      ],
      buyer: [`Your purchase was cancelled`, `Your purchase of ${d} was cancelled.`],
    },
  };
  const [subject, message] = text[kind][role];
  return { message, email: mail(`${subject}: ${book.name}`, [message]) };
}

/** A listed book of the user was unlisted by a moderator, with the reason. */
export function moderationUnlistContent(book: BookFacts, reason: string): Content {
  const message = `Your book ${describe(book)} was unlisted by a moderator. Reason: ${reason}`;
  return { message, email: mail(`Your book was unlisted: ${book.name}`, [message]) };
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
  return { message, email: mail(`${subject}: ${book.name}`, [message, 'See your saved books in the app.']) };
}
