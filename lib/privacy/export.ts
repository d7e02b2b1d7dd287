/**
 * GET /api/user/exportData: everything the service holds about the caller as one JSON document:
 * profile, e-mail preferences, books (every status), requests, cart, saved books, orders (as
 * buyer), conversations with their messages (both sides': the caller's thread as they see it), the
 * people they block and notifications. Never secrets: key attributes, password hashes, token versions and anything
 * named like a hash or token are left out of every item.
 */

import { toUser, User } from '#lib/accounts/schemas.ts';
import { booksOfOwner } from '#lib/db/books.ts';
import { listCartItems } from '#lib/db/cart.ts';
import { allOrdersOfBuyer, allSavedOfUser, blocksOf, inboxEntriesOf, messagesOf } from '#lib/db/export.ts';
import { listNotifications } from '#lib/db/notifications.ts';
import { storedPreferences } from '#lib/db/preferences.ts';
import { listRequests } from '#lib/db/requests.ts';
import { getUser } from '#lib/db/users.ts';
import { NotFound } from '#lib/errors.ts';
import { EmailPreferences, withDefaults } from '#lib/values/preferences.ts';
import * as z from '#lib/zod.ts';

const Items = z.array(z.record(z.string(), z.unknown()));
export const DataExport = z
  .strictObject({
    exportedAt: z.iso.datetime(),
    profile: User,
    preferences: EmailPreferences,
    books: Items,
    requests: Items,
    cart: Items,
    saved: Items,
    orders: Items,
    conversations: Items,
    blocked: Items,
    notifications: Items,
  })
  .check(z.meta({ id: 'DataExport' }));

const SECRET = /hash|token|^pk$|^sk$|^gsi\d(pk|sk)$|^ttl$|^email(State|ClaimedAt)$/i;

/** An item without keys or secrets. Pure. */
export function publicFields(item: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(item)
      .filter(([k]) => !SECRET.test(k))
      .map(([k, v]) => [k, v instanceof Set ? [...v] : v]),
  );
}

const NOTIFICATION_PAGES = 50;
/** The newest conversations exported, each with up to MESSAGES_EACH messages, PARALLEL at a time. */
const CONVERSATIONS_MAX = 200;
const MESSAGES_EACH = 1000;
const PARALLEL = 10;

/** The caller's conversations, newest activity first, each with its messages oldest first. */
async function conversationsOf(userId: string): Promise<Record<string, unknown>[]> {
  const entries = await inboxEntriesOf(userId, CONVERSATIONS_MAX);
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < entries.length; i += PARALLEL) {
    const slice = entries.slice(i, i + PARALLEL);
    const threads = await Promise.all(slice.map((e) => messagesOf(String(e.conversationId), MESSAGES_EACH)));
    slice.forEach((e, j) => {
      out.push({ ...publicFields(e), messages: (threads[j] ?? []).map(publicFields) });
    });
  }
  return out;
}

export async function exportData(userId: string, now = new Date()) {
  const user = await getUser(userId);
  if (!user) throw new NotFound('No such user.');
  const [books, requests, cart, saved, orders, conversations, blocked] = await Promise.all([
    booksOfOwner(userId, [0, 1, 2, 3, 5]),
    listRequests(userId),
    listCartItems(userId, 1000),
    allSavedOfUser(userId),
    allOrdersOfBuyer(userId),
    conversationsOf(userId),
    blocksOf(userId),
  ]);
  const notifications: object[] = [];
  let after: string | undefined;
  for (let i = 0; i < NOTIFICATION_PAGES; i++) {
    const page = await listNotifications(userId, 100, after);
    notifications.push(...page.items);
    if (!page.next) break;
    after = page.next;
  }
  return {
    exportedAt: now.toISOString(),
    profile: toUser(user),
    preferences: withDefaults(storedPreferences(user as unknown as Record<string, unknown>)),
    books: books.map(publicFields),
    requests: requests.map(publicFields),
    cart: cart.map(publicFields),
    saved: saved.map(publicFields),
    orders: orders.map(publicFields),
    conversations,
    blocked: blocked.map(publicFields),
    notifications: notifications.map(publicFields),
  };
}
