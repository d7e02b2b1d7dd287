/**
 * E-mail preferences and one-click unsubscribe: a match e-mail carries the RFC 8058 headers and a
 * visible link, the one-click POST turns matches off, and the next match notifies in-app only.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { processors } from '#functions/streams/processors.ts';
import { handler as getPrefsHandler } from '#functions/user/get-email-preferences.ts';
import { handler as unsubscribeHandler } from '#functions/user/unsubscribe.ts';
import { handler as unsubscribePageHandler } from '#functions/user/unsubscribe-page.ts';
import { handler as updatePrefsHandler } from '#functions/user/update-email-preferences.ts';
import { getUser } from '#lib/db/users.ts';
import { unsubscribeToken } from '#lib/preferences/unsubscribe.ts';
import { consume } from '#lib/streams/consume.ts';
import { EmailPreferences } from '#lib/values/preferences.ts';
import { putBook } from '#tests/helpers/books.ts';
import { type SesMessage, sentEmails } from '#tests/helpers/e2e.ts';
import { invoke, makeContext } from '#tests/helpers/lambda.ts';
import { notifications, requesterAndSeller } from '#tests/helpers/matching.ts';
import { expectEnvelope, expectRefusal } from '#tests/helpers/schema.ts';
import { asEvent, deliverOutbox, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

let reader: StreamReader;
beforeEach(async () => {
  reader = new StreamReader();
  await reader.skipToEnd();
});

type Stored = SesMessage & { headers?: { name: string; value: string }[] };
const emailsTo = async (address: string) =>
  ((await sentEmails()) as Stored[]).filter((m) => m.destination.to.includes(address));
const header = (m: Stored, name: string) =>
  m.headers?.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;

/** The main consumer over what was written since the last call, then the outbox consumer over what it queued. */
const runConsumer = async () => {
  const res = await consume(asEvent(await reader.next()), makeContext(), processors);
  expect(res.batchItemFailures).toEqual([]);
  await deliverOutbox(reader);
};

/** A new account's e-mail preferences: every mail, matches one by one. */
const EVERY_MAIL = { matches: 'each', purchases: true, listings: true, messages: true, saved: true };

const getPrefs = async (user: TestUser) => {
  const res = await invoke(getPrefsHandler, { route: '/api/user/getEmailPreferences', token: user.token });
  expect(res.status).toBe(200);
  return expectEnvelope(res.json(), EmailPreferences);
};

const oneClick = (token: string, init: { rawBody?: string; headers?: Record<string, string> } = {}) =>
  invoke(unsubscribeHandler, {
    method: 'POST',
    route: '/api/user/unsubscribe/{token}',
    pathParameters: { token },
    ...init,
  });

/** A requester with one open request, and a function that lists a new matching book. */
async function requester() {
  const { buyer, seller, body } = await requesterAndSeller();
  await runConsumer();
  const listMatch = async () => {
    const book = await putBook({ ownerId: seller.id, course: body.course });
    await runConsumer();
    return book;
  };
  return { buyer, listMatch };
}

describe('e-mail preferences', () => {
  it('start at each / true / true and change one field at a time', async () => {
    const user = await makeUser();
    expect(await getPrefs(user)).toEqual(EVERY_MAIL);
    const res = await invoke(updatePrefsHandler, {
      method: 'POST',
      route: '/api/user/updateEmailPreferences',
      token: user.token,
      body: { matches: 'daily', listings: false },
    });
    expect(res.status).toBe(200);
    expect(expectEnvelope(res.json(), EmailPreferences)).toEqual({
      ...EVERY_MAIL,
      matches: 'daily',
      listings: false,
    });
    expect(await getPrefs(user)).toEqual({ ...EVERY_MAIL, matches: 'daily', listings: false });
    const stored = (await getUser(user.id)) as unknown as Record<string, unknown>;
    expect(stored.prefMatches).toBe('daily');
    expect(stored.prefListings).toBe(false);
  });

  it('refuse unknown fields, bad values and an empty change with 400', async () => {
    const user = await makeUser();
    for (const body of [{ matches: 'weekly' }, { purchases: 'yes' }, { status: 1 }, {}]) {
      const res = await invoke(updatePrefsHandler, {
        method: 'POST',
        route: '/api/user/updateEmailPreferences',
        token: user.token,
        body,
      });
      expect(res.status).toBe(400);
    }
    expect(await getPrefs(user)).toEqual(EVERY_MAIL);
  });
});

describe('one-click unsubscribe', () => {
  it('a match e-mail carries both headers and a visible link; the one-click POST turns matches off; the next match notifies in-app only', async () => {
    const { buyer, listMatch } = await requester();
    await listMatch();
    const [mail, ...more] = await emailsTo(buyer.record.emailAddress);
    expect(more).toEqual([]);
    if (!mail) throw new Error('no match e-mail');
    const link = header(mail, 'List-Unsubscribe');
    expect(link).toMatch(/^<http[^>]+\/api\/user\/unsubscribe\/[^>]+>$/);
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const url = String(link).slice(1, -1);
    expect(mail.body.text).toContain(url);
    expect(mail.body.html).toContain('Unsubscribe');

    // The mail client's one-click POST, exactly as RFC 8058 has it.
    const token = decodeURIComponent(url.split('/').at(-1) ?? '');
    const res = await oneClick(token, {
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect(await getPrefs(buyer)).toEqual({ ...EVERY_MAIL, matches: 'off' });

    const before = (await notifications(buyer.token)).items.length;
    const second = await listMatch();
    expect(await emailsTo(buyer.record.emailAddress)).toHaveLength(1);
    const after = (await notifications(buyer.token)).items;
    expect(after).toHaveLength(before + 1);
    expect(after[0]).toMatchObject({ kind: 'match', bookId: second.id });
  });

  it('takes a multipart body or none, and always answers 200', async () => {
    const user = await makeUser();
    const multipart = await oneClick(unsubscribeToken(user.id, 'purchases'), {
      rawBody: '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    });
    expect(multipart.status).toBe(200);
    expect(await getPrefs(user)).toEqual({ ...EVERY_MAIL, purchases: false });
    const bare = await oneClick(unsubscribeToken(user.id, 'listings'));
    expect(bare.status).toBe(200);
    expect(await getPrefs(user)).toEqual({ ...EVERY_MAIL, purchases: false, listings: false });
    // the saved-books category (docs/saved.md) has its own link too
    expect((await oneClick(unsubscribeToken(user.id, 'saved'))).status).toBe(200);
    expect(await getPrefs(user)).toEqual({ ...EVERY_MAIL, purchases: false, listings: false, saved: false });
    expect(((await getUser(user.id)) as unknown as Record<string, unknown>).prefSaved).toBe(false);
  });

  it('a forged or altered token changes nothing and gets the same 200', async () => {
    const user = await makeUser();
    const real = unsubscribeToken(user.id, 'matches');
    const forged = [
      `${user.id}.purchases.${real.split('.')[2]}`, // another category with the first one's MAC
      `${real.slice(0, -2)}${real.endsWith('AA') ? 'BB' : 'AA'}`,
    ];
    const answers = [];
    for (const t of forged) {
      const res = await oneClick(t);
      expect(res.status).toBe(200);
      answers.push(res.json<{ data: unknown }>().data);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(await getPrefs(user)).toEqual(EVERY_MAIL);
    // and it is not a login token
    const asBearer = await invoke(getPrefsHandler, { route: '/api/user/getEmailPreferences', token: real });
    expect(asBearer.status).toBe(401);
  });

  it('only the canonical spelling of a token is one: any other string is 400 on both routes and changes nothing', async () => {
    const user = await makeUser();
    const real = unsubscribeToken(user.id, 'matches');
    expect(real).toMatch(/^[0-9A-Z]{26}\.matches\.[A-Za-z0-9_-]{24}$/);
    const misshapen = [
      `${real}A`, // one extra character: the same 18 bytes once decoded
      `${real}=`,
      real.slice(0, -1),
      `${real}.x`,
      `${user.id.toLowerCase()}.matches.${real.split('.')[2]}`,
      `${user.id}.Matches.${real.split('.')[2]}`,
      'not-a-token',
    ];
    for (const t of misshapen) {
      expectRefusal(await oneClick(t), 400, 'VALIDATION_FAILED');
      const page = await invoke(unsubscribePageHandler, {
        route: '/api/user/unsubscribe/{token}',
        pathParameters: { token: t },
      });
      expectRefusal(page, 400, 'VALIDATION_FAILED');
    }
    expect(await getPrefs(user)).toEqual(EVERY_MAIL);
    const good = await oneClick(real);
    expect(good.status).toBe(200);
    expect(await getPrefs(user)).toEqual({ ...EVERY_MAIL, matches: 'off' });
  });

  it('the GET page shows a button that posts and changes nothing by itself', async () => {
    const user = await makeUser();
    const token = unsubscribeToken(user.id, 'matches');
    const res = await invoke(unsubscribePageHandler, {
      route: '/api/user/unsubscribe/{token}',
      pathParameters: { token },
    });
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type'] ?? res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/<form method="post"[^>]*>/);
    expect(res.body).toContain('<button type="submit">Unsubscribe</button>');
    expect(res.body).not.toContain(user.record.emailAddress);
    expect(await getPrefs(user)).toEqual(EVERY_MAIL);

    // the button's POST from a browser answers a page
    const posted = await oneClick(token, {
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    });
    expect(posted.status).toBe(200);
    expect(posted.body).toContain('<h1>Unsubscribed</h1>');
    expect(await getPrefs(user)).toEqual({ ...EVERY_MAIL, matches: 'off' });
  });
});
