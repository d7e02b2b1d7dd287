import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Book } from '#lib/books/schemas.ts';
import { db, TABLE } from '#lib/db/client.ts';
import { bookIndexes, bookKey, cartItemKey } from '#lib/db/keys.ts';
import { migratePage, migrateTable, type StartKey } from '#scripts/migrations/browsing.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeUser } from '#tests/helpers/users.ts';

const read = async (key: { pk: string; sk: string }) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;

/** A book as the code before issue 13 stored it: price in dollars, free-text condition. */
async function putOldBook(ownerId: string, n: number, price: number, condition: string) {
  const id = `01JOLDBOOK${String(n).padStart(16, '0')}`;
  const date = new Date(Date.now() - n * 1000).toISOString();
  const item = {
    type: 'book',
    id,
    name: `Old Book ${n}`,
    edition: 1,
    course: 'OLD 101',
    courseNorm: 'OLD101',
    price,
    condition,
    comments: '',
    ISBN: null,
    status: 0,
    date,
    ownerId,
    ownerFirstName: 'Old',
  };
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...bookKey(id), ...bookIndexes({ ...item, ownerId }), ...item },
    }),
  );
  return item;
}

describe('the browsing migration', () => {
  it('brings a table written by the earlier code to cents and grades, resumably and only once', async () => {
    const seller = await makeUser();
    const buyer = await makeUser();
    const old = [
      await putOldBook(seller.id, 1, 19.99, 'Like new'),
      await putOldBook(seller.id, 2, 0.1, 'Used'),
      await putOldBook(seller.id, 3, 45, 'Fair, some water damage'),
    ];
    const { price: _p, ...snapshotBase } = old[1] as Record<string, unknown>;
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          ...cartItemKey(buyer.id, String(old[1]?.id)),
          type: 'cartItem',
          userId: buyer.id,
          bookId: old[1]?.id,
          addedAt: new Date().toISOString(),
          snapshot: { ...snapshotBase, price: 0.1 },
        },
      }),
    );
    const userBefore = await read({ pk: `USER#${seller.id}`, sk: 'PROFILE' });

    // First page only, then resume from where it stopped.
    const first = await migratePage(undefined, 2);
    expect(first.next).toBeDefined();
    const checkpoints: Array<StartKey | undefined> = [];
    const rest = await migrateTable({
      startKey: first.next,
      pageSize: 2,
      checkpoint: (k) => checkpoints.push(k),
    });
    expect(first.migrated + rest.migrated).toBe(4);
    expect(rest.raced).toBe(0);
    expect(checkpoints.at(-1)).toBeUndefined();

    const stored = await Promise.all(old.map((b) => read(bookKey(b.id))));
    expect(stored.map((b) => [b?.priceCents, b?.condition, 'price' in (b ?? {})])).toEqual([
      [1999, 'like-new', false],
      [10, 'good', false],
      [4500, 'acceptable', false],
    ]);
    const cart = await read(cartItemKey(buyer.id, String(old[1]?.id)));
    expect(cart?.snapshot).toMatchObject({ priceCents: 10, condition: 'good' });
    expect(cart?.snapshot).not.toHaveProperty('price');
    // Index attributes and other entities are untouched.
    expect(stored[0]).toMatchObject(bookIndexes(old[0] as NonNullable<(typeof old)[0]>));
    expect(await read({ pk: `USER#${seller.id}`, sk: 'PROFILE' })).toEqual(userBefore);

    // Again: nothing left to change.
    expect(await migrateTable()).toMatchObject({ migrated: 0, raced: 0 });

    const listed = await booksApi.getAllBooks(undefined, { limit: '10' });
    const books = z.array(Book).parse(listed.json<{ data: unknown }>().data);
    expect(books.filter((b) => b.course === 'OLD 101').map((b) => [b.price, b.condition])).toEqual([
      [19.99, 'like-new'],
      [0.1, 'good'],
      [45, 'acceptable'],
    ]);
  });
});
