import { vi } from 'vitest';

// This file runs with a front end (APP_URL) and an owner address configured; config is read once
// at module load, so the environment is set before any import.
const OWNER = vi.hoisted(() => {
  const owner = `Boss-${Math.random().toString(36).slice(2)}@Owners.edu`;
  process.env.APP_URL = 'https://books.example.edu/';
  process.env.OWNER_EMAILS = ` someone-else@uni.edu, ${owner.toUpperCase()} `;
  return owner;
});

import { describe, expect, it } from 'vitest';
import { handler as confirmLink } from '#functions/auth/confirm-link.ts';
import { handler as unsubscribeLink } from '#functions/user/unsubscribe-page.ts';
import { resetLink } from '#lib/accounts/mails.ts';
import { confirmSignup, createPendingSignup } from '#lib/accounts/signup.ts';
import { getPreferences } from '#lib/db/preferences.ts';
import { getUserByEmail } from '#lib/db/users.ts';
import { unsubscribeToken } from '#lib/preferences/unsubscribe.ts';
import { DEFAULT_PASSWORD, makeSignup } from '#tests/helpers/accounts.ts';
import { invoke } from '#tests/helpers/lambda.ts';

const openLink = (token: string) =>
  invoke(confirmLink, { route: '/api/auth/confirm/{token}', pathParameters: { token } });

describe('confirmation with APP_URL and OWNER_EMAILS set', () => {
  it('redirects a good link to the front end’s confirmation page with the token, creating nothing', async () => {
    const body = makeSignup();
    const token = await createPendingSignup(body);
    const res = await openLink(token);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`https://books.example.edu/confirm?token=${token}`);
    expect(await getUserByEmail(body.emailAddress)).toBeNull();
  });

  it("sends a link that no longer works to the front end's page with what became of it", async () => {
    const bad = await openLink('bad-token');
    expect(bad.status).toBe(302);
    expect(bad.headers.location).toBe('https://books.example.edu/confirm?state=invalid');

    const body = makeSignup();
    const used = await createPendingSignup(body);
    await confirmSignup(used, body.password);
    const again = await openLink(used);
    expect(again.status).toBe(302);
    expect(again.headers.location).toBe('https://books.example.edu/confirm?state=confirmed');

    const first = makeSignup();
    const replaced = await createPendingSignup(first);
    await createPendingSignup({ ...first, password: 'a newer password here' });
    const old = await openLink(replaced);
    expect(old.headers.location).toBe('https://books.example.edu/confirm?state=replaced');
  });

  it('makes an OWNER_EMAILS address an owner when it confirms, whatever its case', async () => {
    await confirmSignup(await createPendingSignup(makeSignup({ emailAddress: OWNER })), DEFAULT_PASSWORD);
    expect((await getUserByEmail(OWNER.toLowerCase()))?.permissionType).toBe(2);
  });

  it('leaves every other address a plain user', async () => {
    const body = makeSignup();
    await confirmSignup(await createPendingSignup(body), body.password);
    expect((await getUserByEmail(body.emailAddress))?.permissionType).toBe(0);
  });

  it('points reset links at the front end', () => {
    expect(resetLink('abc')).toBe('https://books.example.edu/reset-password?token=abc');
  });

  it('sends an e-mailed unsubscribe link on to the front end’s page, changing nothing', async () => {
    const body = makeSignup();
    const user = await confirmSignup(await createPendingSignup(body), body.password);
    const token = unsubscribeToken(user.id, 'matches');
    const res = await invoke(unsubscribeLink, {
      route: '/api/user/unsubscribe/{token}',
      pathParameters: { token },
    });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`https://books.example.edu/unsubscribe?token=${token}`);
    expect(await getPreferences(user.id)).toEqual({});
  });
});
