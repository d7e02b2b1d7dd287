/**
 * deleteAccount: the password is needed, a purchase in progress refuses it, tokens and login stop at
 * once, the address signs up again as a new user, other users' orders stay with `deleted user`,
 * and a deletion that stopped halfway (a crash, the time budget) finishes when run again.
 */
import { describe, expect, it } from 'vitest';
import { handler as getOrderHandler } from '#functions/user/get-order.ts';
import { revokeOwner } from '#lib/accounts/profile.ts';
import { confirmSignup, createPendingSignup } from '#lib/accounts/signup.ts';
import { accountDeletionKey, emailKey, userKey, userPartition } from '#lib/db/keys.ts';
import { BookStatus } from '#lib/db/records.ts';
import { OrderWithStatus } from '#lib/orders/schemas.ts';
import {
  AccountDeleted,
  continueAccountDeletion,
  deleteAccount,
  resumeAccountDeletions,
} from '#lib/privacy/deletion.ts';
import { deleteAccountCall, login, me, withoutTime } from '#tests/helpers/account-calls.ts';
import { createConfirmedUser, makeSignup, type TestAccount } from '#tests/helpers/accounts.ts';
import { makeBook, readBook } from '#tests/helpers/books.ts';
import { addToCart, readGlobalStats, readItem } from '#tests/helpers/cart.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { createRequest } from '#tests/helpers/matching.ts';
import { seedOrder } from '#tests/helpers/orders.ts';
import { queryPartition } from '#tests/helpers/query.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';

/** Everything stored in a user's partition (USER#<id>). */
const partitionOf = (userId: string) => queryPartition(userPartition(userId), { consistent: true });

/** A user with listed books, a request and a cart item. */
async function busyUser(books: number): Promise<{ account: TestAccount; bookIds: string[] }> {
  const account = await createConfirmedUser();
  const bookIds: string[] = [];
  for (let i = 0; i < books; i++) bookIds.push((await makeBook(account.record)).id);
  await createRequest(account.token);
  const other = await createConfirmedUser();
  expect((await addToCart(account.token, (await makeBook(other.record)).id)).status).toBe(200);
  return { account, bookIds };
}

describe('POST /api/auth/deleteAccount', () => {
  it('deletes the account: tokens and login stop, the address signs up again as a new user, the buyer of a delivered book still reads the order', async () => {
    const { account: seller, bookIds } = await busyUser(2);
    const buyer = await createConfirmedUser();
    const unlisted = await makeBook(seller.record, { status: BookStatus.Unlisted });
    const delivered = await seedOrder(buyer.record.id, [{ sellerId: seller.record.id, status: 3 }]);
    const deliveredBook = delivered.books[0];
    if (!deliveredBook) throw new Error('no delivered book');
    const usersBefore = Number((await readGlobalStats())?.totalUsers);

    const wrong = await deleteAccountCall(seller.token, 'not the password at all');
    expect(wrong.status).toBe(403);
    expectError(wrong.json(), 'WRONG_PASSWORD');
    expect(await readItem(userKey(seller.record.id))).toBeDefined();

    const res = await deleteAccountCall(seller.token, seller.password);
    expect(res.status).toBe(200);
    expect(expectEnvelope(res.json(), AccountDeleted)).toEqual({ deleted: true });

    // every token stops; login answers exactly as for an address nobody has
    expect((await me(seller.token)).status).toBe(401);
    const gone = await login(seller.record.emailAddress, seller.password);
    const nobody = await login('nobody-at-all@test-uni.edu', seller.password);
    expect(gone.status).toBe(401);
    expect(withoutTime(gone.body)).toEqual(withoutTime(nobody.body));

    // stored state: profile, address, partition, listed and unlisted books and the job are gone
    expect(await readItem(userKey(seller.record.id))).toBeUndefined();
    expect(await readItem(emailKey(seller.record.emailNormalised))).toBeUndefined();
    expect(await readItem(accountDeletionKey(seller.record.id))).toBeUndefined();
    expect(await partitionOf(seller.record.id)).toEqual([]);
    for (const id of [...bookIds, unlisted.id]) expect(await readBook(id)).toBeUndefined();
    expect(Number((await readGlobalStats())?.totalUsers)).toBe(usersBefore - 1);

    // the delivered book and its order stay for the buyer, the seller shown as `deleted user`
    expect((await readBook(deliveredBook.id))?.ownerFirstName).toBe('deleted user');
    const order = await invoke(getOrderHandler, {
      route: '/api/user/getOrder/{orderId}',
      pathParameters: { orderId: delivered.id },
      token: buyer.token,
    });
    expect(order.status).toBe(200);
    const seen = expectEnvelope(order.json(), OrderWithStatus);
    expect(seen.books).toEqual([
      expect.objectContaining({
        id: deliveredBook.id,
        status: 3,
        owner: { id: seller.record.id, firstName: 'deleted user' },
      }),
    ]);

    // the address signs up again, as a new user
    const again = makeSignup({ emailAddress: seller.record.emailAddress, password: 'a brand new password' });
    const newUser = await confirmSignup(await createPendingSignup(again), again.password);
    expect(newUser.id).not.toBe(seller.record.id);
    expect((await readItem(emailKey(seller.record.emailNormalised)))?.userId).toBe(newUser.id);
    expect((await login(seller.record.emailAddress, 'a brand new password')).status).toBe(200);
    expect((await login(seller.record.emailAddress, seller.password)).status).toBe(401);
  });

  it('refuses with 409 while a book of theirs is bought or verified, as seller or as buyer, and changes nothing', async () => {
    const seller = await createConfirmedUser();
    const buyer = await createConfirmedUser();
    await seedOrder(buyer.record.id, [{ sellerId: seller.record.id, status: 2 }]);
    for (const who of [seller, buyer]) {
      const res = await deleteAccountCall(who.token, who.password);
      expect(res.status).toBe(409);
      expectError(res.json(), 'PURCHASE_IN_PROGRESS');
      expect(await readItem(userKey(who.record.id))).toBeDefined();
      expect(await readItem(accountDeletionKey(who.record.id))).toBeUndefined();
      expect((await me(who.token)).status).toBe(200);
    }
  });

  it("refuses an owner's own deletion (409), so the market keeps who manages its admins; once stepped down it goes", async () => {
    const owner = await createConfirmedUser({ permissionType: 2 });
    const res = await deleteAccountCall(owner.token, owner.password);
    expect(res.status).toBe(409);
    expect(expectError(res.json(), 'OWNER_ACCOUNT').error).toMatch(/npm run promote-owner -- --revoke/);
    expect(await readItem(userKey(owner.record.id))).toMatchObject({ permissionType: 2 });
    expect(await readItem(accountDeletionKey(owner.record.id))).toBeUndefined();

    // the operator's step: an admin again (a new session: the role change ends the old one)
    expect(await revokeOwner(owner.record.emailAddress)).toMatchObject({ permissionType: 1 });
    const session = await login(owner.record.emailAddress, owner.password);
    const { token } = (session.json() as { data: { token: string } }).data;
    expect((await deleteAccountCall(token, owner.password)).status).toBe(200);
    expect(await readItem(userKey(owner.record.id))).toBeUndefined();
  });

  it('finishes a deletion interrupted halfway when run again, in pages, by the scheduled run', async () => {
    const { account, bookIds } = await busyUser(12);
    const listedBefore = Number((await readGlobalStats())?.books_s0);
    let pages = 0;
    const crash = () => {
      pages += 1;
      if (pages > 2) throw new Error('crashed halfway');
      return false;
    };
    await expect(
      deleteAccount({ userId: account.record.id, tokenVersion: 0 }, account.password, {
        shouldStop: crash,
        pageSize: 4,
      }),
    ).rejects.toThrow('crashed halfway');

    // halfway: the account is already gone for its owner, part of the books too, the job remembers where
    expect((await me(account.token)).status).toBe(401);
    expect((await login(account.record.emailAddress, account.password)).status).toBe(401);
    const left = (await Promise.all(bookIds.map(readBook))).filter(Boolean);
    expect(left).toHaveLength(4);
    expect(await readItem(accountDeletionKey(account.record.id))).toMatchObject({ phase: 'books' });
    expect((await partitionOf(account.record.id)).length).toBeGreaterThan(0);

    // a run with a short budget carries on and stops again; the scheduled run finishes it
    let budget = 1;
    expect(
      await continueAccountDeletion(account.record.id, { shouldStop: () => budget-- <= 0, pageSize: 4 }),
    ).toBe('unfinished');
    expect((await Promise.all(bookIds.map(readBook))).filter(Boolean)).toHaveLength(0);
    // the scheduled run leaves a deletion to its own request for a few minutes, then takes it over
    const run = (now: Date) => resumeAccountDeletions({ timeLeftMs: () => 60_000, reserveMs: 0, now });
    expect(await run(new Date())).toEqual({ finished: 0, stoppedEarly: false });
    expect(await readItem(accountDeletionKey(account.record.id))).toBeDefined();
    expect(await run(new Date(Date.now() + 10 * 60_000))).toEqual({ finished: 1, stoppedEarly: false });
    expect(await readItem(accountDeletionKey(account.record.id))).toBeUndefined();
    expect(await partitionOf(account.record.id)).toEqual([]);
    expect(Number((await readGlobalStats())?.books_s0)).toBe(listedBefore - 12);
  });
});
