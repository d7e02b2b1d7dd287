import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Book } from '#lib/books/schemas.ts';
import {
  bookIndexes,
  bookKey,
  campusListingPk,
  cartItemKey,
  matchIndexes,
  matchKey,
  searchPricePk,
  searchTermPk,
  userKey,
} from '#lib/db/keys.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, PutCommand } from '#lib/table/commands.ts';
import { migratePage, migrateTable, type StartKey } from '#scripts/migrations/browsing.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { TEST_CAMPUS } from '#tests/helpers/books.ts';
import { userMatches } from '#tests/helpers/matching.ts';
import { consumeNew, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser } from '#tests/helpers/users.ts';

const read = async (key: { pk: string; sk: string }) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;

/**
 * A book as the code before issue 13 stored it: price in dollars, free-text condition, no campus,
 * and that code's index keys (one listing partition `BOOKS#S0`, no campus listing).
 */
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
      Item: {
        ...bookKey(id),
        gsi1pk: 'BOOKS#S0',
        gsi1sk: `${date}#${id}`,
        gsi2pk: `OWNER#${ownerId}`,
        gsi2sk: `${date}#${id}`,
        ...item,
      },
    }),
  );
  return item;
}

/** A request as the code before campuses stored it: no campus, matching keys of every school. */
async function putOldRequest(userId: string, course: string) {
  const id = `01JOLDREQ${String(Date.now()).padStart(17, '0')}`;
  const createdAt = new Date().toISOString();
  const courseNorm = course.replace(/\s+/g, '').toUpperCase();
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        pk: `USER#${userId}`,
        sk: `REQUEST#${id}`,
        gsi2pk: `REQ#C#${courseNorm}`,
        gsi2sk: `${createdAt}#${id}`,
        type: 'request',
        id,
        userId,
        name: 'Wanted',
        course,
        courseNorm,
        edition: null,
        ISBN: null,
        words: ['wanted'],
        keyWord: null,
        createdAt,
      },
    }),
  );
  return { id, pk: `USER#${userId}`, sk: `REQUEST#${id}` };
}

describe('the browsing migration', () => {
  it('brings a table written by the earlier code to cents, grades and campuses, resumably and only once', async () => {
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
    const request = await putOldRequest(buyer.id, 'OLD 101');
    // the search entries and the match of the code before list fields: keys and the book's id only
    const oldBook = old[0] as NonNullable<(typeof old)[0]>;
    const entryKey = { pk: searchTermPk('T#old'), sk: `${oldBook.date}#${oldBook.id}` };
    const goneKey = { pk: searchTermPk('T#old'), sk: `${oldBook.date}#01JGONEBOOK0000000000000000` };
    for (const [key, bookId] of [
      [entryKey, oldBook.id],
      [goneKey, '01JGONEBOOK0000000000000000'],
    ] as const) {
      await db.send(new PutCommand({ TableName: TABLE, Item: { ...key, type: 'searchEntry', bookId } }));
    }
    const match = { userId: buyer.id, requestId: request.id, bookId: oldBook.id, bookDate: oldBook.date };
    const oldMatchKey = matchKey(buyer.id, request.id, oldBook.id);
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...oldMatchKey, ...matchIndexes(match), type: 'match', ...match, createdAt: oldBook.date },
      }),
    );
    const reader = new StreamReader();
    await reader.skipToEnd();

    // First page only, then resume from where it stopped.
    const first = await migratePage(undefined, 2);
    expect(first.next).toBeDefined();
    const checkpoints: Array<StartKey | undefined> = [];
    const rest = await migrateTable({
      startKey: first.next,
      pageSize: 2,
      checkpoint: (k) => checkpoints.push(k),
    });
    // 3 books, 1 cart snapshot, 2 users (their campus), 1 request, 2 search entries, 1 match
    expect(first.migrated + rest.migrated).toBe(10);
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
    // Campuses: the users' from their addresses, the books' and the request's from their owners,
    // and the index keys of those campuses (books: their shard of the listing of every campus).
    expect((await read(userKey(seller.id)))?.campus).toBe(TEST_CAMPUS);
    expect((await read(userKey(buyer.id)))?.campus).toBe(TEST_CAMPUS);
    for (const [i, b] of stored.entries()) {
      const record = { ...(old[i] as NonNullable<(typeof old)[0]>), campus: TEST_CAMPUS };
      expect(b).toMatchObject({ campus: TEST_CAMPUS, ...bookIndexes(record) });
      expect(b?.gsi4pk).toBe(campusListingPk(TEST_CAMPUS, 0));
    }
    expect(await read({ pk: request.pk, sk: request.sk })).toMatchObject({
      campus: TEST_CAMPUS,
      gsi2pk: `REQ#${TEST_CAMPUS}#C#OLD101`,
    });

    // The entries of the earlier shape carry the book's list fields (or are gone with their book).
    expect(await read(entryKey)).toMatchObject({
      id: oldBook.id,
      name: oldBook.name,
      priceCents: 1999,
      condition: 'like-new',
      gsi4pk: searchPricePk('T#old'),
      gsi4sk: `0001999#${oldBook.date}#${oldBook.id}`,
    });
    expect(await read(goneKey)).toBeUndefined();
    expect((await read(oldMatchKey))?.book).toMatchObject({
      id: oldBook.id,
      priceCents: 1999,
      name: oldBook.name,
    });
    const byPrice = await booksApi.searchPublic('old', { sort: 'price-desc' });
    expect(byPrice.status).toBe(200);
    expect(
      z
        .array(Book)
        .parse(byPrice.json<{ data: unknown }>().data)
        .map((b) => b.id),
    ).toEqual([oldBook.id]);

    // The stream consumer moves the search and matching entries and matches the migrated request.
    await consumeNew(reader, '');
    const searched = await booksApi.searchPublic('old', { campus: TEST_CAMPUS });
    expect(
      z
        .array(Book)
        .parse(searched.json<{ data: unknown }>().data)
        .map((b) => b.id),
    ).toEqual(old.map((b) => b.id));
    expect((await userMatches(buyer.token)).map((m) => m.id).sort()).toEqual(old.map((b) => b.id).sort());

    // Again: nothing left to change.
    expect(await migrateTable()).toMatchObject({ migrated: 0, raced: 0 });

    const listed = await booksApi.getAllBooks(undefined, { limit: '10', campus: TEST_CAMPUS });
    const books = z.array(Book).parse(listed.json<{ data: unknown }>().data);
    expect(books.filter((b) => b.course === 'OLD 101').map((b) => [b.price, b.condition])).toEqual([
      [19.99, 'like-new'],
      [0.1, 'good'],
      [45, 'acceptable'],
    ]);
  });
});
