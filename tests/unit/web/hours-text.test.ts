/** How a hand-over point's opening hours read (web/src/ui/handover.ts), on the order page and the dashboard. */
import { describe, expect, it } from 'vitest';
import { hoursText } from '#web/ui/handover.ts';

const open = (days: number[], opens: string, closes: string) => days.map((day) => ({ day, opens, closes }));
const text = (hours: { day: number; opens: string; closes: string }[], timeZone = 'America/New_York') =>
  hoursText({ hours, timeZone });

describe('hoursText', () => {
  it('runs consecutive days with the same hours together', () => {
    expect(text([...open([1, 2, 3, 4, 5], '09:00', '17:00'), ...open([6], '10:00', '14:00')])).toBe(
      'Mon-Fri 09:00-17:00, Sat 10:00-14:00 (America/New_York)',
    );
  });

  it('says "Every day" for seven days alike', () => {
    expect(text(open([1, 2, 3, 4, 5, 6, 7], '00:00', '23:59'), 'UTC')).toBe('Every day 00:00-23:59 (UTC)');
  });

  it('breaks a run at a day with other hours or none', () => {
    expect(
      text([
        ...open([1], '09:00', '12:00'),
        ...open([2, 3], '09:00', '17:00'),
        ...open([5], '09:00', '17:00'),
      ]),
    ).toBe('Mon 09:00-12:00, Tue-Wed 09:00-17:00, Fri 09:00-17:00 (America/New_York)');
  });

  it('gives a day open twice both ranges, in order, whatever order they are stored in', () => {
    expect(
      text([
        { day: 2, opens: '13:00', closes: '17:00' },
        { day: 1, opens: '13:00', closes: '17:00' },
        { day: 1, opens: '09:00', closes: '12:00' },
        { day: 2, opens: '09:00', closes: '12:00' },
      ]),
    ).toBe('Mon-Tue 09:00-12:00 and 13:00-17:00 (America/New_York)');
  });
});
