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
