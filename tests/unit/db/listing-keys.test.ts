import { describe, expect, it } from 'vitest';
import { listingKeyEntryBytes, listingSortKey, timeSortKey } from '#lib/db/keys.ts';
import { fillBlocks } from '#lib/table/sharded.ts';

const ID = '01JABCDEFGHJKMNPQRSTVWXYZ0';

describe('the listing sort key (lib/db/keys.ts listingSortKey)', () => {
  it('orders books as their ISO dates and ids do, in 36 characters', () => {
    const dates = [
      '2001-09-09T01:46:39.999Z',
      '2001-09-09T01:46:40.000Z',
      '2024-02-29T23:59:59.999Z',
      '2026-11-23T06:00:00.000Z',
      '2026-11-23T06:00:00.001Z',
      '2099-12-31T23:59:59.999Z',
    ];
    const ids = ['01JAAAAAAAAAAAAAAAAAAAAAAA', '01JZZZZZZZZZZZZZZZZZZZZZZZ'];
    const pairs = dates.flatMap((d) => ids.map((id) => ({ d, id })));
    const byIso = [...pairs].sort((a, b) => (timeSortKey(a.d, a.id) < timeSortKey(b.d, b.id) ? -1 : 1));
    const byCompact = [...pairs].sort((a, b) =>
      listingSortKey(a.d, a.id) < listingSortKey(b.d, b.id) ? -1 : 1,
    );
    expect(byCompact).toEqual(byIso);
    for (const { d, id } of pairs) expect(listingSortKey(d, id)).toHaveLength(36);
    expect(listingSortKey('2026-11-23T06:00:00.000Z', ID)).toBe(
      `${Date.parse('2026-11-23T06:00:00.000Z').toString(36).padStart(9, '0')}#${ID}`,
    );
  });

  it('sizes a keys-only entry of the listing of every campus at 97 bytes', () => {
    expect(listingKeyEntryBytes('gsi1', 'BOOKS#S0#3')).toBe(97);
    expect(listingKeyEntryBytes('gsi4', 'CAMPUS#rochester.edu#S0#0')).toBe(112);
  });
});

describe('fillBlocks (lib/table/sharded.ts)', () => {
  it('asks for as many entries as fill the 4 KB blocks the asked ones are charged for', () => {
    // 287 entries of 97 bytes are 27,839 bytes: 7 blocks, which hold 295
    expect(fillBlocks(287, 97)).toBe(295);
    expect(Math.ceil((295 * 97) / 4096)).toBe(7);
    // exactly full blocks stay as they are; no size known, no change
    expect(fillBlocks(64, 128)).toBe(64);
    expect(fillBlocks(287, undefined)).toBe(287);
  });
});
