import { describe, expect, it } from 'vitest';
import {
  LoginBody,
  SignupBody,
  toUser,
  UpdatePasswordBody,
  UpdateProfileBody,
  User,
} from '#lib/accounts/schemas.ts';
import type { UserRecord } from '#lib/db/records.ts';

const signup = (over: Record<string, unknown> = {}) => ({
  emailAddress: 'a@uni.edu',
  password: 'long enough',
  firstName: 'Ada',
  lastName: 'Lovelace',
  university: 'Uni',
  campusMailbox: 'Box 1',
  paymentUsername: '@ada',
  ...over,
});

const record = (over: Partial<UserRecord> = {}): UserRecord => ({
  type: 'user',
  id: '01JTEST',
  emailAddress: 'Ada@Uni.edu',
  emailNormalised: 'ada@uni.edu',
  firstName: 'Ada',
  lastName: 'Lovelace',
  university: 'Uni',
  campusMailbox: 'Box 1',
  paymentUsername: '@ada',
  permissionType: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  passwordHash:
    '$argon2id$v=19$m=256,t=1,p=1$YWJjZGVmZ2hpamtsbW5vcA$YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXphYmNkZWY',
  tokenVersion: 3,
  ...over,
});

describe('the sign-up body', () => {
  it('accepts a complete sign-up and trims the address, keeping its case', () => {
    const parsed = SignupBody.parse(signup({ emailAddress: '  Ada@Uni.EDU ' }));
    expect(parsed.emailAddress).toBe('Ada@Uni.EDU');
  });

  it.each(['status', 'owner', 'buyer', 'date', 'permissionType', 'id', 'tokenVersion', 'passwordHash'])(
    'refuses the field %s',
    (field) => {
      const result = SignupBody.safeParse(signup({ [field]: 2 }));
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.code).toBe('unrecognized_keys');
    },
  );

  it.each(['a@x.edu.evil.com', 'a@evil.com', 'a@edu', 'a@.edu'])('refuses the address %s', (emailAddress) => {
    expect(SignupBody.safeParse(signup({ emailAddress })).success).toBe(false);
  });

  it.each([
    ['a Kelvin sign', '\u212Aate@uni.edu'],
    ['an accented local part', 'jos\u00E9@uni.edu'],
    ['a Cyrillic look-alike', '\u0430da@uni.edu'],
    ['a non-ASCII domain', 'ada@\u00FCni.edu'],
  ])('refuses an address with %s, saying it must be plain ASCII', (_what, emailAddress) => {
    for (const result of [
      SignupBody.safeParse(signup({ emailAddress })),
      LoginBody.safeParse({ emailAddress, password: 'long enough' }),
    ]) {
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual([
        'Use an address written in plain ASCII characters (no accents or look-alike letters).',
      ]);
    }
  });

  it('refuses passwords under 8 or over 72 bytes', () => {
    expect(SignupBody.safeParse(signup({ password: 'short' })).success).toBe(false);
    expect(SignupBody.safeParse(signup({ password: 'é'.repeat(37) })).success).toBe(false);
    expect(SignupBody.safeParse(signup({ password: 'é'.repeat(36) })).success).toBe(true);
  });

  it('refuses missing, empty, blank, over-long or control-character names', () => {
    const { firstName: _, ...noFirstName } = signup();
    expect(SignupBody.safeParse(noFirstName).success).toBe(false);
    expect(SignupBody.safeParse(signup({ firstName: '' })).success).toBe(false);
    expect(SignupBody.safeParse(signup({ lastName: '   ' })).success).toBe(false);
    expect(SignupBody.safeParse(signup({ university: 'u'.repeat(201) })).success).toBe(false);
    expect(SignupBody.safeParse(signup({ firstName: 'Ada\u0000' })).success).toBe(false);
    expect(SignupBody.safeParse(signup({ firstName: 42 })).success).toBe(false);
  });
});

describe('other bodies', () => {
  it('login refuses a password longer than 72 bytes but not a short one', () => {
    expect(LoginBody.safeParse({ emailAddress: 'a@uni.edu', password: 'x' }).success).toBe(true);
    expect(LoginBody.safeParse({ emailAddress: 'a@uni.edu', password: 'x'.repeat(73) }).success).toBe(false);
    expect(LoginBody.safeParse({ emailAddress: 'a@uni.edu', password: '' }).success).toBe(false);
  });

  it('updatePassword holds the new password to the sign-up rule', () => {
    expect(UpdatePasswordBody.safeParse({ password: 'old', newPassword: 'new password' }).success).toBe(true);
    expect(UpdatePasswordBody.safeParse({ password: 'old', newPassword: 'short' }).success).toBe(false);
  });

  it('updateProfile needs at least one field and refuses the address, role and id', () => {
    expect(UpdateProfileBody.safeParse({ firstName: 'Grace' }).success).toBe(true);
    expect(UpdateProfileBody.safeParse({}).success).toBe(false);
    for (const field of ['emailAddress', 'permissionType', 'id', 'password', 'createdAt']) {
      expect(UpdateProfileBody.safeParse({ firstName: 'Grace', [field]: 'x' }).success, field).toBe(false);
    }
  });
});

describe('the user object', () => {
  it('shows the profile and never the password hash or token version', () => {
    const user = toUser(record());
    expect(User.parse(user)).toEqual(user);
    expect(Object.keys(user).sort()).toEqual(
      [
        'campus',
        'campusMailbox',
        'createdAt',
        'emailAddress',
        'firstName',
        'id',
        'lastName',
        'paymentUsername',
        'permissionType',
        'university',
      ].sort(),
    );
    expect(JSON.stringify(user)).not.toMatch(/passwordHash|tokenVersion|\$argon2id\$/);
  });

  it("shows the campus of the user's address, also for a user stored before campuses", () => {
    const stored = record();
    expect(toUser({ ...stored, campus: 'uni.edu' }).campus).toBe('uni.edu');
    const { campus: _none, ...old } = { ...stored, campus: undefined, emailNormalised: 'ada@cs.uni.edu' };
    expect(toUser(old).campus).toBe('uni.edu');
  });

  it('is a strict schema: an object carrying a secret does not pass it', () => {
    expect(User.safeParse({ ...toUser(record()), passwordHash: 'x' }).success).toBe(false);
    expect(User.safeParse({ ...toUser(record()), tokenVersion: 1 }).success).toBe(false);
  });
});
