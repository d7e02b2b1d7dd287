/** The cart and checkout (functions/user/add-to-cart, functions/cart/checkout-cart). */
import { createHash } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inTurn, makeBooks, prng } from '#bench/harness/data.ts';
import type { SeedUser } from '#bench/harness/fixture.ts';
import type { BenchCase } from '#bench/harness/types.ts';
import { CART_LIMIT, CART_READ_LIMIT, snapshotOf } from '#lib/cart/cart.ts';
import { cartPutItems, putCartItem } from '#lib/db/cart.ts';
import { bookKey, CART_PREFIX, idempotencyKey, userPartition } from '#lib/db/keys.ts';
import { checkoutItems } from '#lib/db/orders.ts';
import type { BookRecord, CartItemRecord } from '#lib/db/records.ts';
import { putBooksBatch } from '#lib/db/seed.ts';
import { buildOrder, cartFingerprint, idempotencyRecord } from '#lib/orders/checkout.ts';
import { BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand } from '#lib/table/commands.ts';
import { authGet } from './floors.ts';

/** The cart Query every cart operation starts with (consistent, bounded). */
const cartQuery = (client: DynamoDBDocumentClient, table: string, userId: string) =>
  client.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': userPartition(userId), ':prefix': CART_PREFIX },
      ConsistentRead: true,
      Limit: CART_READ_LIMIT,
    }),
  );

/**
 * Disjoint groups of users, so no case sees another's carts: the reader (user 0) whose cart the
 * listings read, the users who add to their carts, the buyers who check out, and the sellers of
 * the checkout's books.
 */
function groups(users: SeedUser[]) {
  const third = Math.max(1, Math.floor((users.length - 1) / 3));
  return {
    shoppers: users.slice(1, 1 + third),
    buyers: users.slice(1 + third, 1 + 2 * third),
    sellers: users.slice(1 + 2 * third),
  };
}

const addToCart: BenchCase = {
  name: 'addToCart',
  kind: 'write',
  module: 'functions/user/add-to-cart.ts',
  status: 200,
  floorDescription:
    'auth GetItem (consistent); GetItem of the book (consistent); Query of the cart (consistent); TransactWriteItems: conditional Put of the cart item + the cart count moved up below the limit',
  prepare: async (ctx) => {
    const buyers = groups(ctx.fixture.users).shoppers;
    const ids = new Set(buyers.map((u) => u.id));
    const books = ctx.fixture.books.filter((b) => !ids.has(b.ownerId));
    if (books.length === 0) throw new Error('addToCart: no book owned by a non-shopper');
    const buyerOf = inTurn(buyers);
    // Spread the books so a cart rarely holds the same book twice; carts stay far below CART_LIMIT.
    const bookOf = (i: number) => books[(i * 7919) % books.length] as BookRecord;
    return {
      event: (i) => ({
        method: 'POST',
        route: '/api/user/addToCart',
        token: buyerOf(i).token,
        body: { bookId: bookOf(i).id },
      }),
      floor: async (i, client) => {
        const buyer = buyerOf(i);
        const book = bookOf(i);
        await authGet(client, ctx.table, buyer.id);
        const got = await client.send(
          new GetCommand({ TableName: ctx.table, Key: bookKey(book.id), ConsistentRead: true }),
        );
        const cart = await cartQuery(client, ctx.table, buyer.id);
        // The same transaction items the endpoint writes (cart item if absent, counted below the
        // limit; a cart with no count starts it at its items), not a hand copy.
        const items = cartPutItems(
          buyer.id,
          snapshotOf(got.Item as BookRecord),
          new Date().toISOString(),
          CART_LIMIT,
          cart.Items?.length ?? 0,
        );
        await client
          .send(new TransactWriteCommand({ TransactItems: items.map((x) => x.item) }))
          .catch((err: Error) => {
            if (err.name !== 'TransactionCanceledException') throw err;
          });
      },
    };
  },
};

const BOOKS_PER_CHECKOUT = 2;

const checkoutCart: BenchCase = {
  name: 'checkoutCart',
  kind: 'write',
  module: 'functions/cart/checkout-cart.ts',
  status: 201,
  maxRatio: 1.3,
  floorDescription: `auth GetItem; GetItem of the Idempotency-Key record; Query of the cart; BatchGet of its ${BOOKS_PER_CHECKOUT} books (consistent); TransactWriteItems: order Put, key Put, per book a conditional Update (0 -> 1) and the cart item Delete, global, buyer and seller counters`,
  prepare: async (ctx) => {
    const { buyers, sellers: owners } = groups(ctx.fixture.users);
    // A pool of listed books only this case buys, so the listings keep their size.
    const pool = makeBooks(ctx.calls * BOOKS_PER_CHECKOUT, owners, prng(ctx.size + 7));
    await putBooksBatch(pool);
    let next = 0;
    const cartOf = new Map<number, BookRecord[]>();
    const buyerOf = inTurn(buyers);
    const runId = Date.now().toString(36);
    const keyOf = (i: number) => `bench-${runId}-${i}`;
    // The endpoint stores the key's SHA-256, as the floor does.
    const keyHashOf = (i: number) => createHash('sha256').update(keyOf(i), 'utf8').digest('hex');
    return {
      before: async (i) => {
        const books = pool.slice(next, next + BOOKS_PER_CHECKOUT);
        next += BOOKS_PER_CHECKOUT;
        if (books.length < BOOKS_PER_CHECKOUT) throw new Error('checkoutCart: the book pool ran out');
        cartOf.set(i, books);
        const now = new Date().toISOString();
        for (const b of books) await putCartItem(buyerOf(i).id, snapshotOf(b), now);
      },
      event: (i) => ({
        method: 'POST',
        route: '/api/books/checkoutCart',
        token: buyerOf(i).token,
        headers: { 'idempotency-key': keyOf(i) },
      }),
      floor: async (i, client) => {
        const buyer = buyerOf(i);
        const t = ctx.table;
        await authGet(client, t, buyer.id);
        await client.send(
          new GetCommand({ TableName: t, Key: idempotencyKey(buyer.id, keyHashOf(i)), ConsistentRead: true }),
        );
        const cart = await cartQuery(client, t, buyer.id);
        const cartItems = (cart.Items ?? []) as CartItemRecord[];
        const ids = cartItems.map((c) => String(c.bookId));
        const got = await client.send(
          new BatchGetCommand({ RequestItems: { [t]: { Keys: ids.map(bookKey), ConsistentRead: true } } }),
        );
        const books = (got.Responses?.[t] ?? []) as BookRecord[];
        // The same order, key record and transaction items the endpoint builds (no hand copy).
        const order = buildOrder(buyer.id, books);
        const items = checkoutItems({
          order,
          books,
          idempotency: {
            keyHash: keyHashOf(i),
            record: idempotencyRecord(buyer.id, order, cartFingerprint(cartItems)),
          },
        });
        await client.send(
          new TransactWriteCommand({ ClientRequestToken: order.id, TransactItems: items.map((x) => x.item) }),
        );
      },
    };
  },
};

export const cartCases: BenchCase[] = [addToCart, checkoutCart];
