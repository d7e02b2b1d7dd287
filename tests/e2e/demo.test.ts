/**
 * `npm run demo`'s market (scripts/local/demo.ts) made over the real HTTP server, its stream consumer,
 * the S3 emulator's photo processing and the SES emulator: what each demo student finds.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LoginResult } from '#lib/accounts/schemas.ts';
import { Book } from '#lib/books/schemas.ts';
import { ConversationSummary } from '#lib/conversations/schemas.ts';
import { MatchedBook } from '#lib/matching/user-matches.ts';
import { PurchasedBook } from '#lib/orders/schemas.ts';
import {
  DEMO_BOOKS,
  DEMO_PASSWORD,
  type DemoResult,
  demoAddress,
  drawCover,
  seedDemo,
} from '#scripts/local/demo.ts';
import { api, apiUrl, sesUrl } from '#tests/helpers/e2e.ts';
import { expectEnvelope } from '#tests/helpers/schema.ts';

async function tokenOf(key: 'ada' | 'ben' | 'cleo'): Promise<string> {
  const res = await api('POST', '/api/auth/login', {
    body: { emailAddress: demoAddress(key), password: DEMO_PASSWORD },
  });
  expect(res.status).toBe(200);
  return expectEnvelope(res.body, LoginResult).token;
}

/** Polls `read` until `done` holds, or fails after 30 s naming the last value. */
async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`not reached within 30 s: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 300));
    last = await read();
  }
  return last;
}

/** A demo book as its seller reads it (the bought one is not public). */
const getBook = async (index: number) => {
  const token = DEMO_BOOKS[index]?.seller === 'ada' ? tokens.ada : tokens.cleo;
  const res = await api('GET', `/api/books/getBook/${seeded.bookIds[index]}`, { token });
  expect(res.status).toBe(200);
  return expectEnvelope(res.body, Book);
};

let seeded: DemoResult;
const lines: string[] = [];
const tokens = { ada: '', cleo: '' };

beforeAll(async () => {
  seeded = await seedDemo({ apiUrl: apiUrl(), sesUrl: sesUrl(), log: (line) => lines.push(line) });
  tokens.ada = await tokenOf('ada');
  tokens.cleo = await tokenOf('cleo');
}, 120_000);

describe('npm run demo', () => {
  it('lists every demo book with its fields, by its seller, and says so as it goes', async () => {
    expect(seeded.created).toBe(true);
    expect(seeded.bookIds).toHaveLength(DEMO_BOOKS.length);
    const bought = DEMO_BOOKS.findIndex((b) => b.name === 'Principles of Economics');
    for (const [i, spec] of DEMO_BOOKS.entries()) {
      const book = await getBook(i);
      expect(book).toMatchObject({
        name: spec.name,
        course: spec.course,
        edition: spec.edition,
        price: spec.price,
        condition: spec.condition,
        ISBN: spec.ISBN,
        status: i === bought ? 1 : 0,
        owner: { firstName: spec.seller === 'ada' ? 'Ada' : 'Cleo' },
      });
    }
    expect(lines).toContain('listed "Introduction to Algorithms" (CSC 240, $52.50) with a cover photo');
  });

  it("gives each book its drawn cover, processed into the photo store's three sizes", async () => {
    const first = await eventually(
      () => getBook(0),
      (b) => b.photos.length === 1,
    );
    const photo = first.photos[0];
    const res = await fetch(photo?.mediumUrl as string);
    expect(res.status).toBe(200);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 600, 800]);
    for (const i of DEMO_BOOKS.keys()) {
      const book = await eventually(
        () => getBook(i),
        (b) => b.photos.length === 1,
      );
      expect(book.photos).toHaveLength(1);
    }
  }, 90_000);

  it('matches the book Ben asked for, and puts his question in Ada’s inbox', async () => {
    const ben = await tokenOf('ben');
    const matches = await eventually(
      async () =>
        expectEnvelope(
          (await api('GET', '/api/books/getUserMatches', { token: ben })).body,
          z.array(MatchedBook),
        ),
      (m) => m.length > 0,
    );
    expect(matches.map((b) => b.name)).toEqual(['Linear Algebra and Its Applications']);

    const inbox = await api('GET', '/api/user/getConversations', { token: tokens.ada });
    expect(inbox.status).toBe(200);
    expect(expectEnvelope(inbox.body, z.array(ConversationSummary))).toEqual([
      expect.objectContaining({
        other: expect.objectContaining({ firstName: 'Ben' }),
        book: expect.objectContaining({ name: 'Introduction to Algorithms' }),
        unread: 1,
        lastMessage: expect.objectContaining({ mine: false, text: expect.stringContaining('Hi Ada') }),
      }),
    ]);
  });

  it('leaves Cleo one bought book waiting for the hand-over', async () => {
    const res = await api('GET', '/api/user/getPurchasedBooks', { token: tokens.cleo });
    expect(res.status).toBe(200);
    const bought = expectEnvelope(res.body, z.array(PurchasedBook));
    expect(bought.map((b) => [b.name, b.status, b.price])).toEqual([['Principles of Economics', 1, 30]]);
  });

  it('adds nothing when run again on a market it filled', async () => {
    const again = await seedDemo({ apiUrl: apiUrl(), sesUrl: sesUrl() });
    expect(again).toEqual({ created: false, bookIds: [] });
    const posts = await api('GET', '/api/books/getUsersPosts', { token: tokens.ada });
    expect(posts.status).toBe(200);
    // five listed by Ada; the bought one is among her sold books, not her posts
    expect(expectEnvelope(posts.body, z.array(Book))).toHaveLength(4);
  });

  it('draws a cover as a 1200 x 1600 JPEG', async () => {
    const meta = await sharp(
      await drawCover({ name: 'A Title', author: 'An Author', course: 'ABC 101', colour: '#123456' }),
    ).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 1600]);
  });
});
