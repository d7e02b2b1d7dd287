/** How the web app writes times (web/src/ui/when.ts): short in lists, exact where a page states it. */
import { describe, expect, it } from 'vitest';
import { ageOf, dayText, exactText, whenText } from '#web/ui/when.ts';

// local times, as the reader's browser reads them
const now = new Date(2026, 10, 28, 15, 30);
const at = (y: number, m: number, d: number, h: number, min: number, s = 0) =>
  new Date(y, m, d, h, min, s).toISOString();

describe('whenText', () => {
  it('says minutes within the hour', () => {
    expect(whenText(at(2026, 10, 28, 15, 29, 30), now)).toBe('Just now');
    expect(whenText(at(2026, 10, 28, 15, 29), now)).toBe('1 min ago');
    expect(whenText(at(2026, 10, 28, 14, 31), now)).toBe('59 min ago');
  });

  it('says the time earlier today, "Yesterday" before, then the date, with the year only when it is not this one', () => {
    expect(whenText(at(2026, 10, 28, 14, 30), now)).toBe('2:30 PM');
    expect(whenText(at(2026, 10, 28, 0, 5), now)).toBe('12:05 AM');
    expect(whenText(at(2026, 10, 27, 23, 59), now)).toBe('Yesterday');
    expect(whenText(at(2026, 10, 27, 0, 0), now)).toBe('Yesterday');
    expect(whenText(at(2026, 10, 26, 23, 59), now)).toBe('Nov 26');
    expect(whenText(at(2026, 0, 2, 9, 0), now)).toBe('Jan 2');
    expect(whenText(at(2025, 11, 31, 9, 0), now)).toBe('Dec 31, 2025');
  });

  it('reads a clock a little ahead of the reader’s as just now', () => {
    expect(whenText(at(2026, 10, 28, 15, 31), now)).toBe('Just now');
  });
});

describe('exactText and dayText', () => {
  it('write the full date the same on every page, whatever the browser’s language', () => {
    expect(exactText(at(2026, 10, 3, 14, 30))).toBe('Nov 3, 2026, 2:30 PM');
    expect(exactText(at(2025, 0, 12, 0, 5))).toBe('Jan 12, 2025, 12:05 AM');
    expect(dayText(at(2026, 10, 3, 14, 30))).toBe('Nov 3, 2026');
  });
});

describe('ageOf', () => {
  const since = (ms: number) => ageOf(new Date(now.getTime() - ms).toISOString(), now.getTime());
  const minute = 60_000;

  it('says "less than a minute" for a moment ago, not "0 minutes"', () => {
    expect(since(0)).toBe('less than a minute');
    expect(since(59_000)).toBe('less than a minute');
    // a clock a little ahead of the reader's
    expect(since(-30_000)).toBe('less than a minute');
  });

  it('says the largest whole unit: minutes, hours up to two days, then days', () => {
    expect(since(minute)).toBe('1 minute');
    expect(since(59 * minute)).toBe('59 minutes');
    expect(since(60 * minute)).toBe('1 hour');
    expect(since(47 * 60 * minute)).toBe('47 hours');
    expect(since(48 * 60 * minute)).toBe('2 days');
  });
});
