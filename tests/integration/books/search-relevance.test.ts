/**
 * Search that finds what students type (issue 33, item 5): a department alone, a course number
 * alone, course codes however written, an author's surname, ISBNs with or without hyphens, and one
 * typo in a title or author word; ranked by relevance (the default of both routes), newest first
 * within a rank, with cursors across ranks. Each kind has a book that must be found and one that
 * must not. And the open requests of a course, for sellers (item 6).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handler as courseRequestsHandler } from '#functions/books/course-requests.ts';
import { Book } from '#lib/books/schemas.ts';
import { bookKey, typoVariantKey } from '#lib/db/keys.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { measured, startMeasuring } from '#lib/table/metrics.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBookBody, TEST_CAMPUS } from '#tests/helpers/books.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { createRequest } from '#tests/helpers/matching.ts';
import { queryPartition } from '#tests/helpers/query.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { consumeAll, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

const Books = z.array(Book);
const reader = new StreamReader();

let seller: TestUser;
let shopper: TestUser;
const ids = new Map<string, string>();

async function post(key: string, overrides: Parameters<typeof makeBookBody>[0]) {
  const res = await booksApi.postBook(seller.token, makeBookBody(overrides));
  expect(res.status).toBe(201);
  const book = expectEnvelope(res.json(), Book);
  ids.set(key, book.id);
  return book;
}

/** The keys (as posted) of the books a public search answers, in its order. */
async function find(q: string, params?: Record<string, string>): Promise<string[]> {
  const res = await booksApi.searchPublic(q, params);
  expect(res.status, q).toBe(200);
  const byId = new Map([...ids].map(([k, id]) => [id, k]));
  return expectEnvelope(res.json(), Books).map((b) => byId.get(b.id) ?? `other:${b.name}`);
}

beforeAll(async () => {
  seller = await makeUser();
  shopper = await makeUser();
  // oldest first
  await post('linear', {
    name: 'Linear Algebra Done Right',
    course: 'MATH 235',
    author: 'Sheldon Axler',
    ISBN: '978-0-306-40615-7',
  });
  await post('structures', { name: 'Data Structures', course: 'CSC 235' });
  await post('calculus', { name: 'Calculus One', course: 'math-101' });
  await post('topology', { name: 'Topology', course: 'MTH 235' });
  await post('numbers', { name: 'Number Theory', course: 'MATH 2350' });
  await post('logicbook', { name: 'Mathematical Logic', course: 'PHIL 110' });
  await post('organic', { name: 'Organic Chemistry', course: 'CHEM 210', author: 'Paula Bruice' });
  await post('algorithms', { name: 'Algorithms Unlocked', course: 'CSC 300', author: 'Thomas Cormen' });
  await post('economics', { name: 'Microeconomics', course: 'ECON 101', author: 'Robert Pindyck' });
  await consumeAll(reader);
});

describe('a department alone', () => {
  it("lists that department's books in any case, after books with the word in their title", async () => {
    for (const q of ['MATH', 'math', 'Math'])
      expect(await find(q), q).toEqual(['logicbook', 'numbers', 'calculus', 'linear']);
    // MTH is another department; CSC's books are not MATH's
    expect(await find('mth')).toEqual(['topology']);
  });
});

describe('a course number alone', () => {
  it('lists the books of every course with that number, and no longer numbers', async () => {
    expect(await find('235')).toEqual(['topology', 'structures', 'linear']);
    expect(await find('2350')).toEqual(['numbers']);
  });
});

describe('course codes however written', () => {
  it('treats MATH 235, math235, MATH-235 and other separators as one course', async () => {
    for (const q of ['MATH 235', 'math235', 'MATH-235', 'math_235', 'Math/235', 'math.235'])
      expect(await find(q), q).toEqual(['linear']);
    expect(await find('MATH-101')).toEqual(['calculus']);
  });
});

describe("an author's surname", () => {
  it('finds the books of that author only', async () => {
    expect(await find('axler')).toEqual(['linear']);
    expect(await find('Cormen')).toEqual(['algorithms']);
    expect(await find('knuth')).toEqual([]);
  });
});

describe('ISBN-10 and -13', () => {
  it('finds the book with or without hyphens, and nothing for another ISBN', async () => {
    for (const q of ['9780306406157', '978-0-306-40615-7', '0306406152', '0-306-40615-2'])
      expect(await find(q), q).toEqual(['linear']);
    expect(await find('978-0-262-03384-8')).toEqual([]);
  });
});

describe('one typo in a title or author word of 5+ letters', () => {
  it('finds a letter deleted, inserted, replaced or two neighbours swapped', async () => {
    expect(await find('orgnic chemistry')).toEqual(['organic']);
    expect(await find('orgnic')).toEqual(['organic']);
    expect(await find('algoritms')).toEqual(['algorithms']);
    expect(await find('algorithmms')).toEqual(['algorithms']);
    expect(await find('algorythms')).toEqual(['algorithms']);
    expect(await find('algortihms')).toEqual(['algorithms']);
    expect(await find('microeconomcs')).toEqual(['economics']); // past the 12-letter prefix
    // author names
    expect(await find('bruise')).toEqual(['organic']);
    expect(await find('pindick')).toEqual(['economics']);
  });

  it('does not find two typos, nor a typo in a word under 5 letters', async () => {
    expect(await find('orgnc chemistry')).toEqual([]);
    expect(await find('algortims')).toEqual([]);
    expect(await find('dtaa structures')).toEqual([]);
  });

  it('keeps the variants of the words in the typo vocabulary, once per word', async () => {
    const item = await db.send(new GetCommand({ TableName: TABLE, Key: typoVariantKey('orgnic') }));
    expect(item.Item?.typoWords).toEqual(new Set(['organic']));
    // "Data" has 4 letters: no typo entries
    const data = await db.send(new GetCommand({ TableName: TABLE, Key: typoVariantKey('dta') }));
    expect(data.Item).toBeUndefined();
  });

  it('costs a typo search one vocabulary BatchGet beside its Queries, and the same with or without a typo', async () => {
    startMeasuring();
    expect(await find('algoritms')).toEqual(['algorithms']);
    // the query's own term (title and author tiers), the vocabulary, the corrected word's term
    expect(measured().operations.map((o) => o.command)).toEqual(['Query', 'BatchGetItem', 'Query']);
    startMeasuring();
    expect(await find('algorithms')).toEqual(['algorithms']);
    expect(measured().operations.map((o) => o.command)).toEqual(['Query', 'BatchGetItem']);
  });
});

describe('ranking (sort=relevance, the default of both routes)', () => {
  let ranked: string[];
  beforeAll(async () => {
    // posted worst rank first, so newest first would list them the other way round
    await post('r-typo', { name: 'Statistiks Workbook', course: 'BIO 100' });
    await post('r-dept', { name: 'Probability', course: 'STATS 200' });
    await post('r-author', { name: 'Regression', course: 'ECON 300', author: 'Ann Statsworth' });
    await post('r-title-old', { name: 'Stats for Biology', course: 'BIO 120' });
    await post('r-title-new', { name: 'Stats Made Easy', course: 'PSY 110' });
    await consumeAll(reader);
    ranked = ['r-title-new', 'r-title-old', 'r-author', 'r-dept'];
  });

  it('lists title words, then author, then department, newest first within each', async () => {
    expect(await find('stats')).toEqual(ranked);
    expect(await find('stats', { sort: 'relevance' })).toEqual(ranked);
    const res = await booksApi.search(shopper.token, 'stats');
    expect(res.status).toBe(200);
    expect(expectEnvelope(res.json(), Books).map((b) => b.id)).toEqual(ranked.map((k) => ids.get(k)));
    // newest first still answers by date alone
    expect(await find('stats', { sort: 'newest' })).toEqual([
      'r-title-new',
      'r-title-old',
      'r-author',
      'r-dept',
    ]);
  });

  it('ranks typo matches last', async () => {
    expect(await find('statistics')).toEqual(['r-typo']);
    expect(await find('statistiks')).toEqual(['r-typo']);
  });

  it('ranks an exact course above the title words, and an ISBN alone', async () => {
    await post('c-title', { name: 'Math 235 Companion', course: 'STAT 100' });
    await consumeAll(reader);
    // the companion is newer, but the course is an exact course match
    expect(await find('math 235')).toEqual(['linear', 'c-title']);
    expect(await find('0-306-40615-2')).toEqual(['linear']);
  });

  it('pages across ranks with cursors: nothing repeated, nothing skipped', async () => {
    for (const limit of ['1', '2', '3']) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let n = 0; n < 10; n++) {
        const res = await booksApi.searchPublic('stats', { limit, ...(cursor ? { cursor } : {}) });
        expect(res.status).toBe(200);
        const body = res.json() as { next: string | null };
        const byId = new Map([...ids].map(([k, id]) => [id, k]));
        const page = expectEnvelope(res.json(), Books);
        expect(page.length).toBeLessThanOrEqual(Number(limit));
        seen.push(...page.map((b) => byId.get(b.id) ?? b.name));
        if (!body.next) break;
        cursor = body.next;
      }
      expect(seen, `limit ${limit}`).toEqual(ranked);
    }
    // a relevance cursor is bound to its query and order
    const first = (await booksApi.searchPublic('stats', { limit: '1' })).json() as { next: string };
    const reused = await booksApi.searchPublic('stats', { limit: '1', cursor: first.next, sort: 'newest' });
    expect(reused.status).toBe(400);
    expectError(reused.json(), 'VALIDATION_FAILED');
  });
});

describe('removing a book', () => {
  it('removes its department and number entries with the others', async () => {
    const book = await post('gone', { name: 'Geology Field Guide', course: 'GEOL 410' });
    await consumeAll(reader);
    expect(await find('geol')).toEqual(['gone']);
    expect(await find('410')).toEqual(['gone']);
    expect((await queryPartition('SEARCH#D#GEOL')).length).toBe(1);
    expect((await queryPartition(`SEARCH#C#${TEST_CAMPUS}#N#410`)).length).toBe(1);
    const res = await booksApi.deleteBook(seller.token, { bookId: book.id, permanent: true });
    expect(res.status).toBe(200);
    await consumeAll(reader);
    expect((await db.send(new GetCommand({ TableName: TABLE, Key: bookKey(book.id) }))).Item).toBeUndefined();
    expect(await queryPartition('SEARCH#D#GEOL')).toEqual([]);
    expect(await queryPartition('SEARCH#N#410')).toEqual([]);
    expect(await queryPartition(`SEARCH#C#${TEST_CAMPUS}#N#410`)).toEqual([]);
    expect(await find('geol')).toEqual([]);
  });
});

describe('open requests of a course, for sellers (issue 33, item 6)', () => {
  const courseRequests = (token: string, course: string) =>
    invoke(courseRequestsHandler, {
      route: '/api/books/courseRequests/{course}',
      pathParameters: { course },
      token,
    });
  const Demand = z.strictObject({
    course: z.string(),
    campus: z.string(),
    openRequests: z.number(),
    students: z.number(),
  });

  it("counts the campus's open requests for the course however it is written, in one Query", async () => {
    for (let i = 0; i < 3; i++) {
      const buyer = await makeUser();
      await createRequest(buyer.token, { name: `Quantum Mechanics ${i}`, course: 'PHYS-451' });
    }
    const other = await makeUser();
    await createRequest(other.token, { name: 'Quantum Field Theory', course: 'PHYS 452' });
    startMeasuring();
    const res = await courseRequests(seller.token, 'phys 451');
    expect(res.status).toBe(200);
    expect(expectEnvelope(res.json(), Demand)).toEqual({
      course: 'PHYS451',
      campus: TEST_CAMPUS,
      openRequests: 3,
      students: 3,
    });
    // the sign-in GetItem, one Query of the requesters
    expect(measured().operations.map((o) => o.command)).toEqual(['GetItem', 'Query']);
    const none = await courseRequests(seller.token, 'PHYS453');
    expect(expectEnvelope(none.json(), Demand).openRequests).toBe(0);
  });

  it('counts each other student once: not the caller, not one student twice', async () => {
    const [asker, twice] = [await makeUser(), await makeUser()];
    await createRequest(asker.token, { name: 'Plasma Physics', course: 'PHYS 461' });
    await createRequest(twice.token, { name: 'Plasma Physics', course: 'PHYS 461' });
    await createRequest(twice.token, { name: 'Fusion Basics', course: 'phys461' });
    const seen = async (token: string) =>
      expectEnvelope((await courseRequests(token, 'PHYS 461')).json(), Demand);
    expect(await seen(seller.token)).toMatchObject({ openRequests: 3, students: 2 });
    expect(await seen(asker.token)).toMatchObject({ openRequests: 3, students: 1 });
    expect(await seen(twice.token)).toMatchObject({ openRequests: 3, students: 1 });
  });

  it('refuses a query that is not a course code, and a caller without a token', async () => {
    const res = await courseRequests(seller.token, 'quantum mechanics');
    expect(res.status).toBe(400);
    expectError(res.json(), 'COURSE_INVALID');
    const anonymous = await invoke(courseRequestsHandler, {
      route: '/api/books/courseRequests/{course}',
      pathParameters: { course: 'PHYS451' },
    });
    expect(anonymous.status).toBe(401);
  });
});
