/**
 * Contention and throttling as the real service shows them, through a fault-injecting proxy in
 * front of DynamoDB Local (which runs transactions one at a time and never throttles): retries,
 * 503 with Retry-After when they run out, never a 500, and counters that equal what was committed.
 */
import { describe, expect, it } from 'vitest';
import { type Fault, faultProxyForFile } from '#tests/helpers/dynamodb-fault-proxy.ts';

// Every module below reaches DynamoDB through the proxy: the endpoint is set before lib/config.ts loads.
const proxy = await faultProxyForFile();
const { booksApi } = await import('#tests/helpers/book-api.ts');
const { makeBookBody, readBook, seedBook } = await import('#tests/helpers/books.ts');
const { addToCart, checkout, readGlobalStats } = await import('#tests/helpers/cart.ts');
const { makeUser } = await import('#tests/helpers/users.ts');
const { getUserStats } = await import('#lib/db/counters.ts');
const { booksOfOwner } = await import('#lib/db/books.ts');
const { DYNAMODB_TIMING } = await import('#lib/table/client.ts');

/** Fails the first `n` calls of `operation` with `fault`, then forwards. */
function failFirst(operation: string, fault: Fault, n: number) {
  let left = n;
  proxy.decide = (op) => {
    if (op !== operation || left <= 0) return null;
    left -= 1;
    return fault;
  };
}

/**
 * Resolves once `read` has answered the same for 4 s (longer than the SDK's throttling back-off
 * between attempts): the background work has ended.
 */
async function settled(read: () => Promise<unknown>, limitMs = 90_000): Promise<void> {
  const until = Date.now() + limitMs;
  let last = JSON.stringify(await read());
  let still = 0;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = JSON.stringify(await read());
    still = now === last ? still + 1 : 0;
    if (still >= 4) return;
    last = now;
  }
  throw new Error('the store kept changing');
}

const delta = (after: Record<string, unknown>, before: Record<string, unknown>, name: string) =>
  Number(after[name] ?? 0) - Number(before[name] ?? 0);

describe('a write that loses races', () => {
  it('is retried after a TransactionConflict and lands once, counters moved once', async () => {
    const seller = await makeUser();
    const before = await readGlobalStats();
    failFirst('TransactWriteItems', 'conflict', 2);
    const res = await booksApi.postBook(seller.token, makeBookBody({ name: 'Raced Book' }));
    expect(res.status).toBe(201);
    expect(proxy.injected.conflict).toBeGreaterThanOrEqual(2);
    const id = (res.json() as { data: { id: string } }).data.id;
    expect((await readBook(id))?.name).toBe('Raced Book');
    const after = await readGlobalStats();
    expect(delta(after, before, 'totalBooks')).toBe(1);
    expect((await getUserStats(seller.id)).activeListings).toBe(1);
  });

  it('answers 503 with Retry-After when the retries run out, and writes nothing', async () => {
    const seller = await makeUser();
    const before = await readGlobalStats();
    proxy.decide = (op) => (op === 'TransactWriteItems' ? 'conflict' : null);
    const res = await booksApi.postBook(seller.token, makeBookBody());
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect((res.json() as { data: { code: string } }).data.code).toBe('SERVICE_UNAVAILABLE');
    proxy.decide = () => null;
    expect(await readGlobalStats()).toEqual(before);
    expect((await getUserStats(seller.id)).activeListings).toBe(0);
    const posts = await booksApi.getUsersPosts(seller.token);
    expect((posts.json() as { data: unknown[] }).data).toEqual([]);
  });
});

describe('throttling', () => {
  it('is retried (ProvisionedThroughputExceeded on a transaction) and the write lands', async () => {
    const seller = await makeUser();
    // every attempt of the SDK's but the last is throttled
    const throttled = DYNAMODB_TIMING.maxAttempts - 1;
    failFirst('TransactWriteItems', 'provisioned', throttled);
    const res = await booksApi.postBook(seller.token, makeBookBody());
    expect(res.status).toBe(201);
    expect(proxy.injected.provisioned).toBe(throttled);
    expect((await getUserStats(seller.id)).activeListings).toBe(1);
  });

  it('that outlasts the retries is a 503 with Retry-After on a read, never a 500', async () => {
    const reader = await makeUser();
    proxy.decide = (op) => (op === 'Query' ? 'throttling' : null);
    const res = await booksApi.getAllBooks(reader.token);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(proxy.injected.throttling).toBeGreaterThanOrEqual(2);
  });
});

describe('many students writing at once through a store that conflicts and throttles', () => {
  it('answers 50 posts, 50 relists and 20 checkouts with 2xx, 409 or 503 only, and counts what was committed', async () => {
    const sellers = await Promise.all(Array.from({ length: 5 }, () => makeUser()));
    const buyers = await Promise.all(Array.from({ length: 20 }, () => makeUser()));
    const unlisted = await Promise.all(
      Array.from({ length: 50 }, (_, i) => seedBook(sellers[i % 5]?.id as string, { status: 5 })),
    );
    // Ten books, two buyers each: half the checkouts lose the race for their book (409).
    const forSale = await Promise.all(
      Array.from({ length: 10 }, (_, i) => seedBook(sellers[i % 5]?.id as string, { status: 0 })),
    );
    for (const [i, b] of buyers.entries()) {
      const added = await addToCart(b.token, forSale[i % 10]?.id as string);
      expect(added.status).toBe(200);
    }
    const before = await readGlobalStats();

    // A third of the transactions conflict, a tenth of the other calls are throttled.
    proxy.decide = (op) => {
      if (op === 'TransactWriteItems') return Math.random() < 0.33 ? 'conflict' : null;
      return Math.random() < 0.1 ? 'throttling' : null;
    };
    const calls = [
      ...Array.from({ length: 50 }, (_, i) =>
        booksApi.postBook(sellers[i % 5]?.token as string, makeBookBody()).then((r) => ({ kind: 'post', r })),
      ),
      ...unlisted.map((b, i) =>
        booksApi
          .reactivateBook(sellers[i % 5]?.token as string, { bookId: b.id })
          .then((r) => ({ kind: 'relist', r })),
      ),
      ...buyers.map((b) => checkout(b.token).then((r) => ({ kind: 'checkout', r }))),
    ];
    const answers = await Promise.all(calls);
    proxy.decide = () => null;
    // A request answered 503 because it ran out of time goes on in the background here (in Lambda
    // the frozen process would finish it on its next run): wait until nothing moves any more.
    await settled(readGlobalStats);

    const statuses = answers.map((a) => a.r.status);
    // which request, and its answer (the request id to find the logged cause), if any is a 5xx but 503
    expect(
      answers
        .filter((a) => a.r.status >= 500 && a.r.status !== 503)
        .map((a) => `${a.kind}: ${a.r.status} ${a.r.body}`),
    ).toEqual([]);
    for (const s of statuses) expect([200, 201, 409, 503]).toContain(s);
    expect(proxy.injected.conflict + proxy.injected.throttling).toBeGreaterThan(0);

    // What was committed, read back from the table (an answer that timed out may still have landed).
    const ok = (kind: string) => answers.filter((a) => a.kind === kind && a.r.status < 300);
    const seeded = new Set([...unlisted, ...forSale].map((b) => b.id));
    const owned = await Promise.all(sellers.map((x) => booksOfOwner(x.id, [0, 1, 2, 3, 4, 5])));
    const posted = owned.flat().filter((b) => !seeded.has(b.id));
    const relisted = (await Promise.all(unlisted.map((b) => readBook(b.id)))).filter((b) => b?.status !== 5);
    const sold = (await Promise.all(forSale.map((b) => readBook(b.id)))).filter((b) => b?.status === 1);
    // Every 2xx answer was committed.
    expect(posted.length).toBeGreaterThanOrEqual(ok('post').length);
    expect(relisted.length).toBeGreaterThanOrEqual(ok('relist').length);
    expect(sold.length).toBeGreaterThanOrEqual(ok('checkout').length);
    for (const a of ok('checkout')) expect(a.r.status).toBe(201);
    // Every counter moved exactly as often as its write was committed.
    const after = await readGlobalStats();
    expect(delta(after, before, 'totalBooks')).toBe(posted.length);
    expect(delta(after, before, 'books_s5')).toBe(-relisted.length);
    expect(delta(after, before, 'totalOrders')).toBe(sold.length);
    expect(delta(after, before, 'books_s1')).toBe(sold.length);
    expect(delta(after, before, 'books_s0')).toBe(posted.length + relisted.length - sold.length);
    // At most one buyer per book, each book bought once.
    expect(sold.length).toBeLessThanOrEqual(10);
  }, 240_000);
});
