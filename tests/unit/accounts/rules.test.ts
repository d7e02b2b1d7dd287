import { describe, expect, it } from 'vitest';
import * as rules from '#lib/accounts/rules.ts';

describe('e-mail addresses', () => {
  it('normalises by trimming and lower-casing, so A@Uni.EDU is a@uni.edu', () => {
    expect(rules.normaliseEmail('  A@Uni.EDU ')).toBe('a@uni.edu');
    expect(rules.normaliseEmail('a@uni.edu')).toBe(rules.normaliseEmail('A@UNI.edu'));
  });

  it('normalises look-alike letters with NFKC before lower-casing: a Kelvin sign address is the plain k one', () => {
    expect(rules.normaliseEmail('\u212Aate@uni.edu')).toBe('kate@uni.edu');
    expect(rules.normaliseEmail('\uFF21da@uni.edu')).toBe('ada@uni.edu');
  });

  it.each(['a@uni.edu', 'first.last+books@cs.rochester.edu', 'x_y-z@my-college.edu'])(
    'accepts %s',
    (address) => expect(rules.isEduAddress(rules.normaliseEmail(address))).toBe(true),
  );

  it.each([
    ['a domain that only contains .edu', 'a@x.edu.evil.com'],
    ['a non-.edu domain', 'a@evil.com'],
    ['a bare edu', 'a@edu'],
    ['an empty label before .edu', 'a@.edu'],
    ['two @', 'a@b@uni.edu'],
    ['no local part', '@uni.edu'],
    ['a space inside', 'a b@uni.edu'],
    ['an empty label in the middle', 'a@cs..uni.edu'],
    ['a trailing dot', 'a@uni.edu.'],
    ['a label starting with a hyphen', 'a@-uni.edu'],
    ['an over-long address', `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.edu`],
    ['an over-long local part', `${'a'.repeat(65)}@uni.edu`],
    ['nothing', ''],
  ])('refuses %s (%s)', (_why, address) =>
    expect(rules.isEduAddress(rules.normaliseEmail(address))).toBe(false),
  );

  it('recognises owner addresses case-insensitively', () => {
    expect(rules.isOwnerAddress('boss@uni.edu', [' Boss@Uni.EDU ', 'other@uni.edu'])).toBe(true);
    expect(rules.isOwnerAddress('boss@uni.edu', ['boss@uni.edu.evil.com'])).toBe(false);
    expect(rules.isOwnerAddress('boss@uni.edu', [])).toBe(false);
  });
});

describe('passwords', () => {
  it('accepts 8 to 72 UTF-8 bytes', () => {
    expect(rules.passwordProblem('a'.repeat(8))).toBeNull();
    expect(rules.passwordProblem('a'.repeat(72))).toBeNull();
    expect(rules.passwordProblem('é'.repeat(36))).toBeNull(); // 72 bytes
  });

  it('counts bytes, not characters', () => {
    expect(rules.passwordProblem('é'.repeat(37))).toMatch(/at most 72/); // 37 characters, 74 bytes
    expect(rules.passwordProblem('😀'.repeat(19))).toMatch(/at most 72/); // 19 characters, 76 bytes
    expect(rules.passwordProblem('😀😀')).toBeNull(); // 2 characters, 8 bytes
  });

  it('refuses fewer than 8 and more than 72 bytes', () => {
    expect(rules.passwordProblem('a'.repeat(7))).toMatch(/at least 8/);
    expect(rules.passwordProblem('')).toMatch(/at least 8/);
    expect(rules.passwordProblem('a'.repeat(73))).toMatch(/at most 72/);
  });
});

describe('e-mailed tokens', () => {
  it('are 256 random bits in base64url, and only their SHA-256 is kept', () => {
    const a = rules.newEmailToken();
    const b = rules.newEmailToken();
    expect(a.token).toMatch(rules.EMAIL_TOKEN_PATTERN);
    expect(Buffer.from(a.token, 'base64url')).toHaveLength(32);
    expect(a.token).not.toBe(b.token);
    expect(a.hash).toBe(rules.hashEmailToken(a.token));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).not.toContain(a.token);
  });

  it('gives an altered token a different hash', () => {
    const { token, hash } = rules.newEmailToken();
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(rules.hashEmailToken(altered)).not.toBe(hash);
  });

  it('expire after 24 hours (confirmation) and 1 hour (reset), with a TTL in epoch seconds', () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    const confirm = rules.tokenExpiry('confirm', now);
    expect(confirm.expiresAt).toBe('2026-01-02T00:00:00.000Z');
    expect(confirm.ttl).toBe(Date.parse('2026-01-02T00:00:00.000Z') / 1000);
    expect(rules.tokenExpiry('reset', now).expiresAt).toBe('2026-01-01T01:00:00.000Z');
  });

  it('count as expired from the expiry instant on', () => {
    const expiresAt = '2026-01-01T01:00:00.000Z';
    expect(rules.isExpired(expiresAt, new Date('2026-01-01T00:59:59.999Z'))).toBe(false);
    expect(rules.isExpired(expiresAt, new Date(expiresAt))).toBe(true);
    expect(rules.isExpired(expiresAt, new Date('2026-01-02T00:00:00.000Z'))).toBe(true);
  });
});

describe('throttle windows', () => {
  it('are fixed windows of the policy length', () => {
    const policy = rules.THROTTLE.loginFailures;
    expect(policy).toMatchObject({ limit: 10, windowSeconds: 900 });
    const w = rules.throttleWindow(policy, new Date('2026-01-01T00:10:00.000Z'));
    expect(w.start).toBe(Date.parse('2026-01-01T00:00:00.000Z') / 1000);
    expect(w.end - w.start).toBe(900);
  });

  it('give Retry-After as the wait until the sliding window frees a slot', () => {
    const policy = rules.THROTTLE.loginFailures;
    // the current window alone is full: its end (300 s) plus a tenth of the next (90 s)
    expect(rules.retryAfterSeconds(policy, 0, new Date('2026-01-01T00:10:00.000Z'))).toBe(390);
    // the previous window was full and this one just began: its weight falls to 9 after 90 s
    expect(rules.retryAfterSeconds(policy, 10, new Date('2026-01-01T00:00:00.000Z'))).toBe(90);
    // 4 confirmation e-mails last hour, 1 s into this one: a slot frees at half past
    expect(
      rules.retryAfterSeconds(rules.THROTTLE.confirmationMail, 4, new Date('2026-01-01T00:00:01.000Z')),
    ).toBe(1799);
  });

  it('free a slot exactly when Retry-After says, and not a second before', () => {
    const policy = rules.THROTTLE.confirmationMail;
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    for (const previous of [0, 1, 2, 3, 4, 7])
      for (const elapsed of [0, 1, 599, 1800, 3599]) {
        const now = new Date(start + elapsed * 1000);
        const held = rules.allowedInCurrentWindow(policy, previous, now); // a refusal means it is full
        const wait = rules.retryAfterSeconds(policy, previous, now);
        const at = (s: number) => new Date(now.getTime() + s * 1000);
        // after the wait: the current window's count (held) is below what is allowed, or the
        // window rolled over and `held` fades in the next one
        const free = (s: number) =>
          elapsed + s < 3600
            ? rules.allowedInCurrentWindow(policy, previous, at(s)) > held
            : rules.allowedInCurrentWindow(policy, held, at(s)) > 0;
        expect(free(wait), `previous ${previous}, ${elapsed} s in`).toBe(true);
        expect(free(wait - 1), `previous ${previous}, ${elapsed} s in`).toBe(false);
      }
  });

  it('limit confirmation and reset e-mails to 3 an hour per address', () => {
    expect(rules.THROTTLE.confirmationMail).toMatchObject({ limit: 3, windowSeconds: 3600 });
    expect(rules.THROTTLE.resetMail).toMatchObject({ limit: 3, windowSeconds: 3600 });
  });
});
