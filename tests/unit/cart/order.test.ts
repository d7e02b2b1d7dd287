import { afterEach, describe, expect, it, vi } from 'vitest';
import { byAdded } from '#lib/cart/cart.ts';
import type { CartItemRecord } from '#lib/db/records.ts';

const item = (bookId: string, addedAt: string) => ({ bookId, addedAt }) as CartItemRecord;

describe('cart order (byAdded)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('orders by the time a book was added, then by book id, as DynamoDB orders sort keys', () => {
    const items = [
      item('01JB', '2026-11-23T10:00:00.000Z'),
      item('01JA', '2026-11-23T10:00:00.000Z'),
      item('01JZ', '2026-11-23T09:59:59.999Z'),
      item('01Ja', '2026-11-23T10:00:00.000Z'),
    ];
    // by code unit: 'B' (66) before 'a' (97), where a locale's collation puts 'a' first
    expect([...items].sort(byAdded).map((i) => i.bookId)).toEqual(['01JZ', '01JA', '01JB', '01Ja']);
  });

  it("never collates with a locale (its first call loads ICU's collation data into a cold start)", () => {
    const collate = vi.spyOn(String.prototype, 'localeCompare');
    [item('B', '2026-11-23T10:00:00.000Z'), item('A', '2026-11-23T10:00:00.000Z')].sort(byAdded);
    expect(collate).not.toHaveBeenCalled();
  });
});
