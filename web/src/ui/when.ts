import { count } from '#web/ui/words.ts';

/**
 * How the web app writes times, the same on every page (en-US, in the reader's own time zone).
 *
 * When something happened, as a list of conversations says it (in the reader's own time zone):
 * "Just now", "5 min ago", "3:05 PM" earlier today, "Yesterday", "Nov 3" this year, else
 * "Nov 3, 2025". The exact time is the `<time>` element's title.
 */
export function whenText(at: string, now: Date = new Date()): string {
  const then = new Date(at);
  const minutes = Math.floor((now.getTime() - then.getTime()) / 60_000);
  if (minutes < 1) return 'Just now';
  if (minutes < 60) return `${minutes} min ago`;
  const day = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const daysAgo = Math.round((day(now) - day(then)) / 86_400_000);
  // some engines put a narrow no-break space before AM/PM
  if (daysAgo === 0) {
    return then.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' }).replace('\u202f', ' ');
  }
  if (daysAgo === 1) return 'Yesterday';
  return then.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    ...(then.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}

/** The exact time, where a page states it or a short time's title gives it: "Nov 3, 2026, 2:30 PM". */
export const exactText = (at: string): string =>
  new Date(at)
    .toLocaleString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    })
    .replace('\u202f', ' ');

/**
 * How long ago `iso` was, in the largest whole unit (minutes, hours, days), from `now`: "Waiting
 * 3 hours", "reported 2 days ago"; under a minute (or a clock a little ahead) "less than a minute".
 */
export function ageOf(iso: string, now: number = Date.now()): string {
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return count(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return count(hours, 'hour');
  return `${Math.floor(hours / 24)} days`;
}

/** A day, without its time: "Nov 3, 2026". */
export const dayText = (at: string): string =>
  new Date(at).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
