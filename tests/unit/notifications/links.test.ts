import { describe, expect, it } from 'vitest';
import { notificationPath } from '#lib/notifications/links.ts';

describe('the page a notification opens', () => {
  it.each([
    [{ kind: 'match', bookId: 'b/1' }, '/books/b%2F1'],
    [{ kind: 'match' }, '/requests'],
    [{ kind: 'saved', bookId: 'b2' }, '/books/b2'],
    [{ kind: 'saved' }, '/saved'],
    [{ kind: 'message', bookId: 'b3', conversationId: 'c 1' }, '/messages/c%201'],
    [{ kind: 'message' }, '/messages'],
    [{ kind: 'handover', bookId: 'b4', orderId: 'o1' }, '/orders/o1'],
    [{ kind: 'ordered', orderId: 'o3' }, '/orders/o3'],
    [{ kind: 'sold', bookId: 'b5' }, '/orders'],
    [{ kind: 'verified', bookId: 'b5', orderId: 'o2' }, '/orders/o2'],
    [{ kind: 'delivered', bookId: 'b5', orderId: 'o2' }, '/orders/o2'],
    [{ kind: 'cancelled', bookId: 'b5' }, '/orders'],
    [{ kind: 'unlisted', bookId: 'b6' }, '/listings'],
    [{ kind: 'fulfilled', bookId: 'b7' }, '/requests'],
  ] as const)('%o -> %s', (n, path) => {
    expect(notificationPath(n)).toBe(path);
  });
});
