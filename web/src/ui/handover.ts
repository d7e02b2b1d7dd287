/** How a hand-over slot reads, the same on the order page and the dashboard. */

/** The slot at its point's time zone, e.g. "Tue, Dec 1, 14:00 (America/New_York) at Library, Front desk". */
export const slotText = (h: { at: string; point: { name: string; location: string; timeZone: string } }) =>
  `${new Date(h.at).toLocaleString('en-US', {
    timeZone: h.point.timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })} (${h.point.timeZone}) at ${h.point.name}${h.point.location ? `, ${h.point.location}` : ''}`;

const DAY_NAMES = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/**
 * A point's weekly hours, days with the same hours run together: "Mon-Fri 09:00-17:00, Sat
 * 10:00-14:00 (America/New_York)", "Every day 08:00-20:00 (UTC)"; a day open twice reads
 * "09:00-12:00 and 13:00-17:00".
 */
export const hoursText = (p: {
  hours: { day: number; opens: string; closes: string }[];
  timeZone: string;
}) => {
  const byDay = new Map<number, string>();
  for (const o of [...p.hours].sort((a, b) => a.day - b.day || a.opens.localeCompare(b.opens))) {
    const range = `${o.opens}-${o.closes}`;
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
