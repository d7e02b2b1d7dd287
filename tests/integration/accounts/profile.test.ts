import { describe, expect, it } from 'vitest';
import { handler as updateProfile } from '#functions/auth/update-profile.ts';
import { handler as getUserData } from '#functions/user/get-user-data.ts';
import { promoteOwner, revokeOwner } from '#lib/accounts/profile.ts';
import { User } from '#lib/accounts/schemas.ts';
import { Conflict, NotFound } from '#lib/errors.ts';
import { createConfirmedUser, uniqueEmail } from '#tests/helpers/accounts.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';

const update = (token: string | undefined, body: unknown) =>
  invoke(updateProfile, { method: 'POST', route: '/api/auth/updateProfile', token, body });
const me = (token?: string) => invoke(getUserData, { route: '/api/user/getUserData', token });

describe('GET /api/user/getUserData', () => {
  it('answers the caller’s user and nothing secret', async () => {
    const { user, token } = await createConfirmedUser({ firstName: 'Kim', campusMailbox: 'Box 77' });
    const res = await me(token);
    expect(res.status).toBe(200);
    expect(expectEnvelope(res.json(), User)).toEqual(user);
    expect(user).toMatchObject({ firstName: 'Kim', campusMailbox: 'Box 77', permissionType: 0 });
    expect(res.body).not.toMatch(/passwordHash|tokenVersion|tokenHash|\$2[aby]\$|\$argon2id\$/);
  });

  it('needs a valid token', async () => {
    expectError((await me()).json(), 'TOKEN_MISSING');
    expect((await me('garbage.token.here')).status).toBe(401);
  });

  it('refuses a query parameter', async () => {
    const { token } = await createConfirmedUser();
    const res = await invoke(getUserData, { route: '/api/user/getUserData', token, query: { id: 'x' } });
    expect(res.status).toBe(400);
  });
});

describe('POST /api/auth/updateProfile', () => {
  it('changes only the fields sent and answers the user', async () => {
    const { user, token } = await createConfirmedUser();
    const res = await update(token, { firstName: '  Robin ', paymentUsername: '@robin' });
    expect(res.status).toBe(200);
    const updated = expectEnvelope(res.json(), User);
    expect(updated).toEqual({ ...user, firstName: 'Robin', paymentUsername: '@robin' });
    expect(expectEnvelope((await me(token)).json(), User)).toEqual(updated);
  });

  it.each([
    'status',
    'owner',
    'buyer',
    'date',
    'permissionType',
    'id',
    'emailAddress',
    'passwordHash',
    'tokenVersion',
  ])('refuses a body carrying %s with 400 and changes nothing', async (field) => {
    const { user, token } = await createConfirmedUser();
    const res = await update(token, { firstName: 'Mallory', [field]: 2 });
    expect(res.status).toBe(400);
    expect(expectError(res.json(), 'VALIDATION_FAILED').details?.map((d) => d.field)).toEqual([field]);
    expect(expectEnvelope((await me(token)).json(), User)).toEqual(user);
  });

  it('refuses an empty body, blank or over-long values', async () => {
    const { token } = await createConfirmedUser();
    expect((await update(token, {})).status).toBe(400);
    expect((await update(token, { lastName: '   ' })).status).toBe(400);
    expect((await update(token, { university: 'u'.repeat(201) })).status).toBe(400);
  });

  it('needs a token', async () => {
    expect((await update(undefined, { firstName: 'X' })).status).toBe(401);
  });
});

describe('promoting an owner (npm run promote-owner)', () => {
  it('makes the user with that address (any case) an owner', async () => {
    const { user, token } = await createConfirmedUser();
    const promoted = await promoteOwner(`  ${user.emailAddress.toUpperCase()} `);
    expect(promoted).toEqual({ ...user, permissionType: 2 });
    expect(expectEnvelope((await me(token)).json(), User).permissionType).toBe(2);
  });

  it('refuses an address without an account', async () => {
    await expect(promoteOwner(uniqueEmail())).rejects.toBeInstanceOf(NotFound);
  });

  it('--revoke makes an owner an admin again, and refuses anyone who is not an owner', async () => {
    const { user } = await createConfirmedUser();
    await promoteOwner(user.emailAddress);
    expect(await revokeOwner(user.emailAddress.toUpperCase())).toEqual({ ...user, permissionType: 1 });
    await expect(revokeOwner(user.emailAddress)).rejects.toBeInstanceOf(Conflict);
    await expect(revokeOwner(uniqueEmail())).rejects.toBeInstanceOf(NotFound);
  });
});
