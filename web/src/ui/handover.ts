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

/** A point's weekly hours, e.g. "Mon 09:00-17:00, Sat 10:00-14:00 (America/New_York)". */
export const hoursText = (p: { hours: { day: number; opens: string; closes: string }[]; timeZone: string }) =>
  `${p.hours.map((o) => `${DAY_NAMES[o.day]} ${o.opens}-${o.closes}`).join(', ')} (${p.timeZone})`;
