/**
 * Input a hostile client sent (issue 20, items 9-11): control characters, lone surrogates,
 * duplicate JSON keys, loosely written numbers, and bodies in another media type.
 */
import { describe, expect, it } from 'vitest';
import { handler as confirm } from '#functions/auth/confirm.ts';
import { handler as updateProfile } from '#functions/auth/update-profile.ts';
import { handler as postBook } from '#functions/books/post-book.ts';
import { handler as getBooksWithStatus } from '#functions/dashboard/get-books-with-status.ts';
import { handler as getOrders } from '#functions/dashboard/get-orders.ts';
import { handler as getNotifications } from '#functions/matching/get-notifications.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectRefusal } from '#tests/helpers/schema.ts';

const postRaw = (token: string, rawBody: string, contentType = 'application/json') =>
  invoke(postBook, {
    method: 'POST',
    route: '/api/books/postBook',
    token,
    rawBody,
    headers: { 'content-type': contentType },
  });
const profileRaw = (token: string, rawBody: string) =>
  invoke(updateProfile, { method: 'POST', route: '/api/auth/updateProfile', token, rawBody });
const postsOf = async (token: string) =>
  (await booksApi.getUsersPosts(token)).json<{ data: unknown[] }>().data;

describe('text fields (item 9)', () => {
  it.each([
    ['a NUL in the name', { name: 'Calculus\u0000' }],
    ['a CR LF in the name', { name: 'Calculus\r\nBcc: victim@uni.edu' }],
    ['a newline in the condition', { condition: 'Good\nvery' }],
    ['a NUL in the comments', { comments: 'fine\u0000' }],
    ['an escape character in the course', { course: 'CSC\u001b171' }],
  ])('refuses %s with 400 and stores nothing', async (_what, override) => {
    const { token } = await createConfirmedUser();
    const res = await booksApi.postBook(token, makeBookBody(override));
    expectRefusal(res, 400, 'VALIDATION_FAILED');
    expect(await postsOf(token)).toEqual([]);
  });

  it('allows newlines in comments only', async () => {
    const { token } = await createConfirmedUser();
    const res = await booksApi.postBook(
      token,
      makeBookBody({ comments: 'Line one\nLine two\r\nLine three' }),
    );
    expect(res.status).toBe(201);
    expect(res.json<{ data: { comments: string } }>().data.comments).toBe('Line one\nLine two\r\nLine three');
  });

  it('refuses a lone UTF-16 surrogate in a body, whatever the field', async () => {
    const { token } = await createConfirmedUser();
    const res = await profileRaw(token, '{"firstName":"Ada\\ud800"}');
    expectRefusal(res, 400, 'VALIDATION_FAILED');
    const book = await booksApi.postBook(token, makeBookBody({ name: 'Calculus \udc00' }));
    expect(book.status).toBe(400);
    expect(await postsOf(token)).toEqual([]);
  });

  it('refuses a JSON body that sends a key twice with 400', async () => {
    const { token } = await createConfirmedUser({ firstName: 'Before' });
    const res = await profileRaw(token, '{"firstName":"Mallory","first\\u004eame":"Alice"}');
    expectRefusal(res, 400, 'MALFORMED_JSON');
    const nested = await profileRaw(token, '{"lastName":"x","firstName":"A","lastName":"y"}');
    expect(nested.status).toBe(400);
    const me = await invoke(updateProfile, {
      method: 'POST',
      route: '/api/auth/updateProfile',
      token,
      body: { firstName: 'After' },
    });
    expect(me.status).toBe(200);
    expect(me.json<{ data: { firstName: string } }>().data.firstName).toBe('After');
  });
});

describe('numeric path and query parameters (item 10)', () => {
  it.each(['0x10', '1e1', ' ', '%20', '+5', '1.0', '-1', ''])(
    'refuses %j as a status, a limit and a page size with 400',
    async (value) => {
      const admin = await createConfirmedUser({ permissionType: 1 });
      const status = await invoke(getBooksWithStatus, {
        route: '/api/dashboard/getBooksWithStatus/{status}',
        pathParameters: { status: value },
        token: admin.token,
      });
      expect(status.status).toBe(400);
      const orders = await invoke(getOrders, {
        route: '/api/dashboard/getOrders',
        query: { limit: value },
        token: admin.token,
      });
      expect(orders.status).toBe(400);
      const notifications = await invoke(getNotifications, {
        route: '/api/user/getNotifications',
        query: { limit: value },
        token: admin.token,
      });
      expect(notifications.status).toBe(400);
      expect((await booksApi.getBooksNoToken(value, 0)).status).toBe(400);
    },
  );

  it('still reads plain decimal digits', async () => {
    const admin = await createConfirmedUser({ permissionType: 1 });
    const res = await invoke(getBooksWithStatus, {
      route: '/api/dashboard/getBooksWithStatus/{status}',
      pathParameters: { status: '0' },
      query: { limit: '10' },
      token: admin.token,
    });
    expect(res.status).toBe(200);
  });
});

describe('request media types (item 11)', () => {
  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'answers 415 for a JSON route’s body sent as %s, and stores nothing',
    async (type) => {
      const { token } = await createConfirmedUser();
      const res = await postRaw(token, JSON.stringify(makeBookBody()), type);
      expectRefusal(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(await postsOf(token)).toEqual([]);
    },
  );

  it('takes application/json with a charset', async () => {
    const { token } = await createConfirmedUser();
    const res = await postRaw(token, JSON.stringify(makeBookBody()), 'application/json; charset=utf-8');
    expect(res.status).toBe(201);
  });

  it('takes an HTML form body on POST /api/auth/confirm only', async () => {
    const res = await invoke(confirm, {
      method: 'POST',
      route: '/api/auth/confirm',
      headers: { 'content-type': 'text/plain' },
      rawBody: 'token=x&password=y',
    });
    expect(res.status).toBe(415);
  });
});
