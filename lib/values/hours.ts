/**
 * Weekly opening hours of a hand-over point, and where a moment falls in them. Pure: a point's
 * hours are wall-clock times in its IANA time zone, so a slot is checked in that zone.
 */

/** One opening: ISO weekday (1 Monday .. 7 Sunday), from `opens` to `closes` (`HH:MM`, 24 h, same day). */
export interface Opening {
  day: number;
  opens: string;
  closes: string;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** The hours in words, in the order given: "Mon 09:00-17:00, Sat 10:00-14:00". Pure. */
export const hoursInWords = (hours: readonly Opening[]): string =>
  hours
    .map((o) => `${Object.keys(WEEKDAYS).find((k) => WEEKDAYS[k] === o.day) ?? o.day} ${o.opens}-${o.closes}`)
    .join(', ');

/** Whether `tz` is an IANA time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** `HH:MM` -> minutes after midnight. */
export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * The parts of the wall clock at `at` in `timeZone` (24 h, two digits each but the year):
 * `weekday` (`Mon`), `year`, `month`, `day`, `hour`, `minute`, `second`.
 */
export function wallClockParts(at: Date, timeZone: string): Record<string, string> {
  return Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
}

/** The wall clock at `at` in `timeZone`: ISO weekday, minutes after midnight and the date `YYYY-MM-DD`. */
export function wallClock(at: Date, timeZone: string): { weekday: number; minutes: number; date: string } {
  const parts = wallClockParts(at, timeZone);
  return {
    weekday: WEEKDAYS[String(parts.weekday)] ?? 0,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
    date: `${parts.year}-${parts.month}-${parts.day}`,
  };
}

/** Whether a point with these hours is open at `at` (opens <= time < closes on that weekday). */
export function isOpenAt(hours: readonly Opening[], timeZone: string, at: Date): boolean {
  const clock = wallClock(at, timeZone);
  return hours.some(
    (o) =>
      o.day === clock.weekday && minutesOf(o.opens) <= clock.minutes && clock.minutes < minutesOf(o.closes),
  );
}

/** The date `YYYY-MM-DD` of `at` in `timeZone`. */
export const localDate = (at: Date, timeZone: string): string => wallClock(at, timeZone).date;
