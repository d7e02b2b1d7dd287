import { describe, expect, it } from 'vitest';
import {
  canMove,
  feeShareCents,
  HAND_OVER,
  type HandOverAction,
  searchForm,
  toDollars,
  unlistCutoff,
} from '#lib/dashboard/rules.ts';
import { diffTerms, termsOf } from '#lib/dashboard/user-search.ts';

describe('hand-over transitions', () => {
  const table: Record<HandOverAction, number[]> = {
    confirmBook: [1],
    setBookPaid: [2],
    cancelPurchase: [1, 2],
  };
  for (const [action, allowed] of Object.entries(table) as Array<[HandOverAction, number[]]>) {
    for (const status of [0, 1, 2, 3, 4, 5, 6]) {
      it(`${allowed.includes(status) ? 'allows' : 'refuses'} ${action} from status ${status}`, () => {
        expect(canMove(action, status)).toBe(allowed.includes(status));
      });
    }
  }

  it('moves confirm to 2, paid to 3 and cancel back to 0', () => {
    expect([HAND_OVER.confirmBook.to, HAND_OVER.setBookPaid.to, HAND_OVER.cancelPurchase.to]).toEqual([
      2, 3, 0,
    ]);
  });
});

describe('money and dates', () => {
  it('shows cents as dollars without float drift', () => {
    expect(toDollars(1999)).toBe(19.99);
    expect(toDollars(30)).toBe(0.3);
  });

  it("rounds a book's 5 % fee share to the cent", () => {
    expect(feeShareCents(2000)).toBe(100);
    expect(feeShareCents(1010)).toBe(51);
    expect(feeShareCents(1)).toBe(0);
  });

  it('puts the cut-off exactly N days before now', () => {
    expect(unlistCutoff(new Date('2026-03-05T12:00:00.000Z'), 62)).toBe('2026-01-02T12:00:00.000Z');
  });
});

describe('user search terms', () => {
  const user = {
    type: 'user',
    id: 'u1',
    emailAddress: 'Ada@Uni.EDU',
    emailNormalised: 'ada@uni.edu',
    firstName: ' Ada ',
    lastName: 'Lovelace',
    passwordHash: 'secret',
  };

  it('indexes the lower-cased e-mail, first and last name and campus domain, never anything else', () => {
    expect(termsOf(user)).toEqual([
      { field: 'E', value: 'ada@uni.edu', userId: 'u1' },
      { field: 'F', value: 'ada', userId: 'u1' },
      { field: 'L', value: 'lovelace', userId: 'u1' },
      // no stored campus: the address's
      { field: 'C', value: 'uni.edu', userId: 'u1' },
    ]);
    expect(termsOf({ ...user, campus: 'cs.rochester.edu' }).at(-1)).toEqual({
      field: 'C',
      value: 'cs.rochester.edu',
      userId: 'u1',
    });
    expect(termsOf({ ...user, type: 'book' })).toEqual([]);
    expect(termsOf(undefined)).toEqual([]);
  });

  it('writes only what changed and deletes what is gone', () => {
    expect(diffTerms(user, { ...user, lastName: 'Byron' })).toEqual({
      put: [{ field: 'L', value: 'byron', userId: 'u1' }],
      remove: [{ field: 'L', value: 'lovelace', userId: 'u1' }],
    });
    expect(diffTerms(user, { ...user, permissionType: 1 })).toEqual({ put: [], remove: [] });
    expect(diffTerms(user, undefined).remove).toHaveLength(4);
  });

  it('lower-cases and trims search input', () => {
    expect(searchForm('  MiXeD ')).toBe('mixed');
    expect(searchForm(42)).toBe('');
  });
});
