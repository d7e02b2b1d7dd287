/** How a hand-over slot reads, the same on the order page and the dashboard. */

const SLOT_FORMAT: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
};

/**
 * The slot at its point's time zone, on the clock every other time of the app reads (when.ts):
 * "Tue, Dec 1, 2:00 PM (America/New_York) at Library, Front desk". The service's notifications say
 * the same (`slotInWords`, lib/handover/service.ts); the web app imports nothing from lib, so
 * tests/unit/web/hours-text.test.ts and tests/unit/handover/slot-words.test.ts hold both to one sentence.
 */
export const slotText = (h: { at: string; point: { name: string; location: string; timeZone: string } }) => {
  const { name, location, timeZone } = h.point;
  // some engines put a narrow no-break space before AM/PM
  const when = new Date(h.at).toLocaleString('en-US', { ...SLOT_FORMAT, timeZone }).replace('\u202f', ' ');
  return `${when} (${timeZone}) at ${location ? `${name}, ${location}` : name}`;
};

/** An opening's "HH:MM" (24 h, as stored and typed) on the app's clock: "9:00 AM", "5:30 PM", "12:00 AM". */
export const clockText = (hhmm: string): string => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return `${h % 12 || 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
};

const DAY_NAMES = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/**
 * A point's weekly hours, days with the same hours run together: "Mon-Fri 9:00 AM-5:00 PM, Sat
 * 10:00 AM-2:00 PM (America/New_York)", "Every day 8:00 AM-8:00 PM (UTC)"; a day open twice reads
 * "9:00 AM-12:00 PM and 1:00 PM-5:00 PM".
 */
export const hoursText = (p: {
  hours: { day: number; opens: string; closes: string }[];
  timeZone: string;
}) => {
  const byDay = new Map<number, string>();
  for (const o of [...p.hours].sort((a, b) => a.day - b.day || a.opens.localeCompare(b.opens))) {
    const range = `${clockText(o.opens)}-${clockText(o.closes)}`;
    const before = byDay.get(o.day);
    byDay.set(o.day, before ? `${before} and ${range}` : range);
  }
  // runs of consecutive days (Mon 1 .. Sun 7) open at the same hours
  const runs: { from: number; to: number; hours: string }[] = [];
  for (const [day, hours] of byDay) {
    const last = runs.at(-1);
    if (last && last.to === day - 1 && last.hours === hours) last.to = day;
    else runs.push({ from: day, to: day, hours });
  }
  const days = (r: { from: number; to: number }) =>
    r.from === 1 && r.to === 7
      ? 'Every day'
      : r.from === r.to
        ? DAY_NAMES[r.from]
        : `${DAY_NAMES[r.from]}-${DAY_NAMES[r.to]}`;
  return `${runs.map((r) => `${days(r)} ${r.hours}`).join(', ')} (${p.timeZone})`;
};
