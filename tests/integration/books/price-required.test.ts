/**
 * Selling without surprises (issue 32, item 4): postBook never lists a book for $0 by accident. The
 * price is required: a body without it, or with null or an empty string, is a 400 naming the price
 * field in plain words and stores nothing; an explicit 0 lists the book free.
 */
import { describe, expect, it } from 'vitest';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { expectRefusal } from '#tests/helpers/schema.ts';

const postsOf = async (token: string) =>
  (await booksApi.getUsersPosts(token)).json<{ data: unknown[] }>().data;

describe('postBook price', () => {
  it.each([
    ['no price field', undefined],
    ['a null price', null],
    ['an empty-string price', ''],
  ])('refuses %s with 400 on the price field and stores nothing', async (_what, price) => {
    const { token } = await createConfirmedUser();
    const { price: _dropped, ...rest } = makeBookBody();
    const body = price === undefined ? rest : { ...rest, price };
    const res = await booksApi.postBook(token, body as never);
    const error = expectRefusal(res, 400, 'VALIDATION_FAILED') as {
      details?: { field: string; message: string }[];
    };
    const detail = error.details?.find((d) => d.field === 'price');
    expect(detail?.message).toMatch(/price/i);
    expect(detail?.message).not.toMatch(/undefined|NaN|expected/);
    expect(await postsOf(token)).toEqual([]);
  });

  it.each([
    [20_000, 'A price is at most $10,000.'],
    [-1, 'A price cannot be negative: 0 gives the book away.'],
  ])('refuses the price %s with its own plain message, not the missing price one', async (price, message) => {
    const { token } = await createConfirmedUser();
    const res = await booksApi.postBook(token, makeBookBody({ price }));
    const error = expectRefusal(res, 400, 'VALIDATION_FAILED') as {
      details?: { field: string; message: string }[];
    };
    expect(error.details?.find((d) => d.field === 'price')?.message).toBe(message);
    expect(await postsOf(token)).toEqual([]);
  });

  it('lists a book free only when the price 0 is sent, and stores 0', async () => {
    const { token } = await createConfirmedUser();
    const res = await booksApi.postBook(token, makeBookBody({ price: 0 }));
    expect(res.status).toBe(201);
    const id = res.json<{ data: { id: string } }>().data.id;
    const stored = await booksApi.getBook(id, token);
    expect(stored.status).toBe(200);
    expect(stored.json<{ data: { price: number } }>().data.price).toBe(0);
  });
});
