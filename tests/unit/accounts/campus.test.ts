import { describe, expect, it } from 'vitest';
import { CAMPUS_PATTERN, campusOfEmail, campusOfUser } from '#lib/values/campus.ts';

describe('a campus', () => {
  it('is the last two labels of the address domain, lower-cased', () => {
    expect(campusOfEmail('ada@cs.uni.edu')).toBe('uni.edu');
    expect(campusOfEmail('bob@uni.edu')).toBe('uni.edu');
    expect(campusOfEmail('Eve@Mail.CS.Other-School.EDU')).toBe('other-school.edu');
  });

  it("is the stored one when there is one, else the address's", () => {
    expect(campusOfUser({ campus: 'stored.edu', emailNormalised: 'a@uni.edu' })).toBe('stored.edu');
    expect(campusOfUser({ emailNormalised: 'a@x.uni.edu' })).toBe('uni.edu');
  });

  it('in a query string is a two-label domain or all', () => {
    for (const ok of ['uni.edu', 'all', 'other-school.edu']) expect(CAMPUS_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['', 'uni', 'a.b.c', '-x.edu', 'uni.edu#0', 'ALL'])
      expect(CAMPUS_PATTERN.test(bad), bad).toBe(false);
  });
});
