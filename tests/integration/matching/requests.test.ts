import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { userStatsKey } from '#lib/db/keys.ts';
import { MAX_OPEN_REQUESTS } from '#lib/db/requests.ts';
import { BookRequest } from '#lib/matching/requests.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';
import { measured, startMeasuring } from '#lib/table/metrics.ts';
import {
  createRequest,
  deleteRequest,
  getRequests,
  requestBody,
  requestBook,
  storedItems,
} from '#tests/helpers/matching.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { setStored } from '#tests/helpers/stored.ts';
import { makeUser } from '#tests/helpers/users.ts';

const openRequests = async (userId: string) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: userStatsKey(userId) }))).Item?.openRequests ?? 0;

describe('POST /api/books/requestBook', () => {
  it('stores the request with the ISBN as ISBN-13 and answers 201 with it', async () => {
    const user = await makeUser();
    const res = await requestBook(user.token, {
      name: 'Calculus: Early Transcendentals',
      course: 'MATH 161',
      edition: 8,
      ISBN: '0-306-40615-2',
    });
    expect(res.status).toBe(201);
    const data = expectEnvelope(res.json(), BookRequest);
    expect(data).toMatchObject({
      name: 'Calculus: Early Transcendentals',
      course: 'MATH 161',
      edition: 8,
      ISBN: '9780306406157',
    });
    expect(res.json<{ method: string }>().method).toBe('POST /api/books/requestBook');
    expect(await openRequests(user.id)).toBe(1);
  });

  it('takes edition and ISBN as optional', async () => {
    const user = await makeUser();
    const data = await createRequest(user.token, { name: 'Physics', course: 'PHY 101' });
    expect(data).toMatchObject({ edition: null, ISBN: null });
  });

  it.each([
    ['an invalid ISBN check digit', { ISBN: '9780306406158' }, 'ISBN'],
    ['an empty name', { name: '' }, 'name'],
    ['a name over 200 characters', { name: 'x'.repeat(201) }, 'name'],
    ['a course over 40 characters', { course: 'C'.repeat(41) }, 'course'],
    ['a course of punctuation only', { course: ' - ' }, 'course'],
    ['an edition of 0', { edition: 0 }, 'edition'],
    ['a fractional edition', { edition: 1.5 }, 'edition'],
    ['a status field', { status: 0 }, 'status'],
    ['a userId field', { userId: 'someone' }, 'userId'],
    ['an id field', { id: 'mine' }, 'id'],
  ])('refuses %s with 400 naming the field, storing nothing', async (_name, patch, field) => {
    const user = await makeUser();
    const res = await requestBook(user.token, { ...requestBody(), ...patch });
    expect(res.status).toBe(400);
    expect(expectError(res.json(), 'VALIDATION_FAILED').details?.map((d) => d.field)).toContain(field);
    expect(await storedItems(user.id, 'REQUEST#')).toEqual([]);
  });

  it('takes a title whose one word normalises past what an index key holds, and indexes it by course only', async () => {
    const user = await makeUser();
    // U+3300 is one character that NFKD turns into four: 200 of them make one word of 2,400 bytes.
    const res = await requestBook(user.token, { name: '\u3300'.repeat(200), course: 'MATH 161' });
    expect(res.status).toBe(201);
    const stored = await storedItems(user.id, 'REQUEST#');
    const request = stored.find((i) => i.type === 'request');
    expect(request?.keyWord).toBeNull();
    for (const item of stored)
      for (const [k, v] of Object.entries(item))
        if (/^(pk|sk|gsi\d(pk|sk))$/.test(k))
          expect(Buffer.byteLength(String(v)), k).toBeLessThanOrEqual(1024);
  });

  it('refuses with 400 a course code that normalises past 64 bytes, and stores nothing', async () => {
    const user = await makeUser();
    const res = await requestBook(user.token, { name: 'Calculus', course: '\uFDFA'.repeat(40) });
    expect(res.status).toBe(400);
    expect(expectError(res.json(), 'VALIDATION_FAILED').details?.map((d) => d.field)).toContain('course');
    expect(await storedItems(user.id, 'REQUEST#')).toEqual([]);
  });

  it('needs a token', async () => {
    const res = await requestBook('', requestBody());
    expect(res.status).toBe(401);
  });

  it(`refuses a request beyond ${MAX_OPEN_REQUESTS} open ones with 409`, async () => {
    const user = await makeUser();
    // Set the counter at the cap directly rather than creating 100 requests.
    await setStored(userStatsKey(user.id), { openRequests: MAX_OPEN_REQUESTS });
    const res = await requestBook(user.token, requestBody());
    expect(res.status).toBe(409);
    expectError(res.json(), 'CONFLICT');
    expect(await storedItems(user.id, 'REQUEST#')).toEqual([]);
  });
});

describe('GET /api/user/getRequests', () => {
  it("lists only the caller's requests, newest first, in a fixed number of operations", async () => {
    const user = await makeUser();
    const other = await makeUser();
    const first = await createRequest(user.token);
    const second = await createRequest(user.token);
    await createRequest(other.token);
    startMeasuring();
    const res = await getRequests(user.token);
    expect(measured().operations.map((o) => o.command)).toEqual(['GetItem', 'Query']);
    const data = expectEnvelope(res.json(), z.array(BookRequest));
    expect(data.map((r) => r.id)).toEqual([second.id, first.id]);
  });

  it('answers an empty list for a user without requests', async () => {
    const user = await makeUser();
    expect(expectEnvelope((await getRequests(user.token)).json(), z.array(BookRequest))).toEqual([]);
  });
});

describe('POST /api/user/deleteRequest', () => {
  it('deletes the caller’s request and uncounts it', async () => {
    const user = await makeUser();
    const r = await createRequest(user.token);
    const res = await deleteRequest(user.token, r.id);
    expect(res.status).toBe(200);
    expect(expectEnvelope(res.json(), z.strictObject({ id: z.string() }))).toEqual({ id: r.id });
    expect(await storedItems(user.id, 'REQUEST#')).toEqual([]);
    expect(await openRequests(user.id)).toBe(0);
  });

  it("answers 404 for another user's request and leaves it alone", async () => {
    const owner = await makeUser();
    const intruder = await makeUser();
    const r = await createRequest(owner.token);
    const res = await deleteRequest(intruder.token, r.id);
    expect(res.status).toBe(404);
    expectError(res.json(), 'NOT_FOUND');
    expect((await storedItems(owner.id, 'REQUEST#')).map((i) => i.id)).toEqual([r.id]);
    expect(await openRequests(owner.id)).toBe(1);
    expect(await openRequests(intruder.id)).toBe(0);
  });

  it('answers 404 for a request already deleted, without uncounting twice', async () => {
    const user = await makeUser();
    const r = await createRequest(user.token);
    await createRequest(user.token);
    expect((await deleteRequest(user.token, r.id)).status).toBe(200);
    expect((await deleteRequest(user.token, r.id)).status).toBe(404);
    expect(await openRequests(user.id)).toBe(1);
  });
});
