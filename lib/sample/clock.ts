import { wallClockParts } from '#lib/values/hours.ts';

/** `DD.MM.YYYY, HH:MM:SS` (24 h) in the given IANA time zone. */
export function formatPingTime(now: Date, timeZone: string): string {
  const parts = wallClockParts(now, timeZone);
  return `${parts.day}.${parts.month}.${parts.year}, ${parts.hour}:${parts.minute}:${parts.second}`;
}
