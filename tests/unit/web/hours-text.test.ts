/** How a hand-over point's hours and a slot read (web/src/ui/handover.ts), on the order page, the thread and the dashboard. */
import { describe, expect, it } from 'vitest';
import { clockText, hoursText, slotText } from '#web/ui/handover.ts';

const open = (days: number[], opens: string, closes: string) => days.map((day) => ({ day, opens, closes }));
const text = (hours: { day: number; opens: string; closes: string }[], timeZone = 'America/New_York') =>
  hoursText({ hours, timeZone });

describe('hoursText', () => {
  it('runs consecutive days with the same hours together', () => {
    expect(text([...open([1, 2, 3, 4, 5], '09:00', '17:00'), ...open([6], '10:00', '14:00')])).toBe(
      'Mon-Fri 9:00 AM-5:00 PM, Sat 10:00 AM-2:00 PM (America/New_York)',
    );
  });

  it('says "Every day" for seven days alike', () => {
    expect(text(open([1, 2, 3, 4, 5, 6, 7], '00:00', '23:59'), 'UTC')).toBe(
      'Every day 12:00 AM-11:59 PM (UTC)',
    );
  });

  it('breaks a run at a day with other hours or none', () => {
    expect(
      text([
        ...open([1], '09:00', '12:00'),
        ...open([2, 3], '09:00', '17:00'),
        ...open([5], '09:00', '17:00'),
      ]),
    ).toBe('Mon 9:00 AM-12:00 PM, Tue-Wed 9:00 AM-5:00 PM, Fri 9:00 AM-5:00 PM (America/New_York)');
  });

  it('gives a day open twice both ranges, in order, whatever order they are stored in', () => {
    expect(
      text([
        { day: 2, opens: '13:00', closes: '17:00' },
        { day: 1, opens: '13:00', closes: '17:00' },
        { day: 1, opens: '09:00', closes: '12:00' },
        { day: 2, opens: '09:00', closes: '12:00' },
      ]),
    ).toBe('Mon-Tue 9:00 AM-12:00 PM and 1:00 PM-5:00 PM (America/New_York)');
  });
});

describe('on the clock the rest of the app reads (when.ts)', () => {
  it('writes a stored HH:MM as 12-hour time', () => {
    expect(['00:00', '00:30', '09:05', '12:00', '13:00', '23:59'].map(clockText)).toEqual([
      '12:00 AM',
      '12:30 AM',
      '9:05 AM',
      '12:00 PM',
      '1:00 PM',
      '11:59 PM',
    ]);
  });

  it("writes a slot at its point's time zone", () => {
    const point = { name: 'Library', location: 'Front desk', timeZone: 'America/New_York' };
    // 19:00 UTC on Tuesday, Dec 1 2026 is 2 PM in New York (EST)
    expect(slotText({ at: '2026-12-01T19:00:00.000Z', point })).toBe(
      'Tue, Dec 1, 2:00 PM (America/New_York) at Library, Front desk',
    );
    expect(
      slotText({ at: '2026-12-01T19:00:00.000Z', point: { ...point, location: '', timeZone: 'UTC' } }),
    ).toBe('Tue, Dec 1, 7:00 PM (UTC) at Library');
  });
});
