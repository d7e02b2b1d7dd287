/** A hand-over slot in the words of its notifications and e-mails (lib/handover/service.ts). */
import { describe, expect, it } from 'vitest';
import { slotInWords } from '#lib/handover/service.ts';

const point = { name: 'Library', location: 'Front desk', timeZone: 'America/New_York' };

describe('slotInWords', () => {
  it("says the slot at its point's time zone on the 12-hour clock the web app reads", () => {
    // 19:00 UTC on Tuesday, Dec 1 2026 is 2 PM in New York (EST)
    expect(slotInWords({ at: '2026-12-01T19:00:00.000Z', point } as Parameters<typeof slotInWords>[0])).toBe(
      'Tue, Dec 1, 2:00 PM (America/New_York) at Library, Front desk',
    );
  });

  it('leaves out an empty location, and says midnight as 12 AM', () => {
    const h = { at: '2026-12-02T00:00:00.000Z', point: { ...point, location: '', timeZone: 'UTC' } };
    expect(slotInWords(h as Parameters<typeof slotInWords>[0])).toBe('Wed, Dec 2, 12:00 AM (UTC) at Library');
  });
});
