/**
 * GET /api/user/exportData: everything the service holds about the caller as one JSON document:
 * profile, e-mail preferences, books (every status), requests, cart, orders (as buyer),
 * notifications. Never secrets: key attributes, password hashes, token versions and anything
 * named like a hash or token are left out of every item.
 */

import { toUser, User } from '#lib/accounts/schemas.ts';
import { booksOfOwner } from '#lib/db/books.ts';
import { listCartItems } from '#lib/db/cart.ts';
import { allOrdersOfBuyer } from '#lib/db/export.ts';
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
    orders: Items,
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

export async function exportData(userId: string, now = new Date()) {
  const user = await getUser(userId);
  if (!user) throw new NotFound('No such user.');
  const [books, requests, cart, orders] = await Promise.all([
    booksOfOwner(userId, [0, 1, 2, 3, 5]),
    listRequests(userId),
    listCartItems(userId, 1000),
    allOrdersOfBuyer(userId),
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
    orders: orders.map(publicFields),
    notifications: notifications.map(publicFields),
  };
}
