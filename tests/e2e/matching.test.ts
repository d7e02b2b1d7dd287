/**
 * Wanted books end to end: the real HTTP server (serverless offline) and its stream consumer on
 * DynamoDB Local's stream, with e-mail read from the SES emulator.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BookRequest } from '#lib/matching/requests.ts';
import { MatchedBook } from '#lib/matching/user-matches.ts';
import { Notification } from '#lib/notifications/service.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import {
  api,
  postBookOverHttp,
  requestOverHttp,
  sentEmails,
  uniqueTag,
  waitForEmail,
} from '#tests/helpers/e2e.ts';
import { expectEnvelope } from '#tests/helpers/schema.ts';
import { makeUser } from '#tests/helpers/users.ts';

/** Polls `read` until `done` holds for its value, or fails after `timeoutMs`. */
async function eventually<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 300));
    last = await read();
  }
  return last;
}

const matchesOf = async (token: string) => {
  const res = await api('GET', '/api/books/getUserMatches', { token });
  expect(res.status).toBe(200);
  return expectEnvelope(res.body, z.array(MatchedBook));
};
const notificationsOf = async (token: string) => {
  const res = await api('GET', '/api/user/getNotifications?limit=10', { token });
  expect(res.status).toBe(200);
  return expectEnvelope(res.body, z.array(Notification));
};

describe('a request, then a matching book', () => {
  it('produces the match, the in-app notification and one e-mail to the requester', async () => {
    const buyer = await makeUser();
    const seller = await makeUser();
    const tag = uniqueTag();

    const request = await requestOverHttp(buyer.token, {
      name: `Thermodynamics${tag} Primer`,
      course: `E2E ${tag}`,
    });
    const listed = await api('GET', '/api/user/getRequests', { token: buyer.token });
    expect(expectEnvelope(listed.body, z.array(BookRequest)).map((r) => r.id)).toEqual([request.id]);

    const book = await postBookOverHttp(
      seller.token,
      makeBookBody({ name: `Primer of thermodynamics${tag}, 2nd ed.`, course: `TST ${tag}` }),
    );

    const matches = await eventually(
      () => matchesOf(buyer.token),
      (m) => m.length > 0,
    );
    expect(matches.map((m) => [m.id, m.requestIds, m.inCart])).toEqual([[book.id, [request.id], false]]);

    const notes = await eventually(
      () => notificationsOf(buyer.token),
      (n) => n.length > 0,
    );
    expect(notes).toEqual([expect.objectContaining({ kind: 'match', bookId: book.id, read: false })]);

    const mail = await waitForEmail(buyer.record.emailAddress, /Match for your book request/, 30_000);
    expect(mail.body.text).toContain(`thermodynamics${tag}`);
    const toBuyer = (await sentEmails()).filter((m) => m.destination.to.includes(buyer.record.emailAddress));
    expect(toBuyer).toHaveLength(1);

    // The seller sees nothing of it; marking read and deleting the request work over HTTP.
    expect(await matchesOf(seller.token)).toEqual([]);
    const marked = await api('POST', '/api/user/markNotificationsRead', { token: buyer.token, body: {} });
    expect(marked.status).toBe(200);
    expect((await notificationsOf(buyer.token)).map((n) => n.read)).toEqual([true]);
    const deleted = await api('POST', '/api/user/deleteRequest', {
      token: buyer.token,
      body: { requestId: request.id },
    });
    expect(deleted.status).toBe(200);
    expect(await matchesOf(buyer.token)).toEqual([]);
  });
});
