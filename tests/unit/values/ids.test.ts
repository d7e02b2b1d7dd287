/** The one id rule every route's id input uses (lib/values/ids.ts), as the routes name it. */
import { describe, expect, it } from 'vitest';
import { BookId } from '#lib/cart/schemas.ts';
import { UserId } from '#lib/conversations/schemas.ts';
import { OrderIdParams } from '#lib/orders/schemas.ts';
import { IdOf } from '#lib/values/ids.ts';
import * as z from '#lib/zod.ts';

const refusal = (schema: z.ZodMiniType, value: unknown) => {
  const r = z.safeParse(schema, value);
  return r.success ? null : r.error.issues[0]?.message;
};

describe('IdOf', () => {
  it('takes 1-64 letters, digits, _ and -', () => {
    for (const id of ['a', '01JBOOK000000000000000000', 'x_y-z', 'a'.repeat(64)]) {
      expect(refusal(IdOf('a book id'), id)).toBeNull();
    }
  });

  it('refuses key syntax, spaces, nothing and too much, naming the id', () => {
    for (const id of ['BOOK#1', 'a b', 'é', 'a'.repeat(65)]) {
      expect(refusal(IdOf('a book id'), id), id).toMatch(/^(Not a book id\.|Use at most 64 characters\.)$/);
    }
    expect(refusal(IdOf('a book id'), '')).not.toBeNull();
  });

  it('names each route’s id as before', () => {
    expect(refusal(BookId, 'BOOK#1')).toBe('Not a book id.');
    expect(refusal(UserId, 'USER#1')).toBe('Not a user id.');
    expect(refusal(OrderIdParams.shape.orderId, 'ORDER#1')).toBe('Not an order id.');
  });
});
