/**
 * Suspensions: tokens stop at once, login answers as a wrong password, listed books are unlisted;
 * admins only by an owner, owners never.
 */
import { describe, expect, it } from 'vitest';
import { handler as reinstateHandler } from '#functions/dashboard/reinstate-user.ts';
import { handler as suspendHandler } from '#functions/dashboard/suspend-user.ts';
import { login, me, withoutTime } from '#tests/helpers/account-calls.ts';
import { createConfirmedUser } from '#tests/helpers/accounts.ts';
import { makeBook, readBook } from '#tests/helpers/books.ts';
import { readUserStats } from '#tests/helpers/cart.ts';
import { invoke } from '#tests/helpers/lambda.ts';

const suspend = (token: string, userId: string) =>
  invoke(suspendHandler, {
    method: 'PUT',
    route: '/api/dashboard/suspendUser',
    token,
    body: { userId, reason: 'Selling stolen books.' },
  });

describe('suspendUser', () => {
  it('stops the live token at once, answers login as a wrong password, unlists the listed books; reinstating lets them log in again', async () => {
    const admin = await createConfirmedUser({ permissionType: 1 });
    const target = await createConfirmedUser();
    const listed = [await makeBook({ id: target.record.id }), await makeBook({ id: target.record.id })];
    const sold = await makeBook({ id: target.record.id }, { status: 1 });
    expect((await me(target.token)).status).toBe(200);

    const res = await suspend(admin.token, target.record.id);
    expect(res.status).toBe(200);
    expect(res.json<{ data: unknown }>().data).toEqual({
      userId: target.record.id,
      suspended: true,
      unlisted: 2,
    });
    expect((await me(target.token)).status).toBe(401);
    for (const b of listed) expect((await readBook(b.id))?.status).toBe(5);
    expect((await readBook(sold.id))?.status).toBe(1);
    expect((await readUserStats(target.record.id))?.activeListings).toBe(0);

    const right = await login(target.record.emailAddress, target.password);
    const wrong = await login(target.record.emailAddress, 'not the password at all');
    expect(right.status).toBe(401);
    expect(withoutTime(right.body)).toEqual(withoutTime(wrong.body));

    // a second call changes nothing more
    const again = await suspend(admin.token, target.record.id);
    expect(again.json<{ data: { unlisted: number } }>().data.unlisted).toBe(0);

    const back = await invoke(reinstateHandler, {
      method: 'PUT',
      route: '/api/dashboard/reinstateUser',
      token: admin.token,
      body: { userId: target.record.id },
    });
    expect(back.status).toBe(200);
    expect((await login(target.record.emailAddress, target.password)).status).toBe(200);
    for (const b of listed) expect((await readBook(b.id))?.status).toBe(5); // not relisted
  });

  it('an admin cannot suspend another admin (403); an owner can; nobody can suspend an owner (409)', async () => {
    const admin = await createConfirmedUser({ permissionType: 1 });
    const otherAdmin = await createConfirmedUser({ permissionType: 1 });
    const owner = await createConfirmedUser({ permissionType: 2 });
    const otherOwner = await createConfirmedUser({ permissionType: 2 });

    expect((await suspend(admin.token, otherAdmin.record.id)).status).toBe(403);
    expect((await me(otherAdmin.token)).status).toBe(200);
    expect((await suspend(admin.token, owner.record.id)).status).toBe(409);
    expect((await suspend(otherOwner.token, owner.record.id)).status).toBe(409);
    expect((await me(owner.token)).status).toBe(200);
    expect((await suspend(owner.token, otherAdmin.record.id)).status).toBe(200);
    expect((await me(otherAdmin.token)).status).toBe(401);
  });
});
