/**
 * Where a visitor was when they chose to log in or sign up (`?next=` on those pages), so they come
 * back there: at once after a login, and after a sign-up once the e-mailed link is confirmed. That
 * link opens in a new tab, so the sign-up keeps the path in this browser's localStorage (a path on
 * this site, nothing else) until the confirmed page offers it once.
 */
import { storage } from '#web/storage.ts';

const KEY = 'cb_return_to';

/** `next` when it is a path on this site, else undefined: never an absolute URL from a query. */
export const sitePath = (next: string | null | undefined): string | undefined =>
  next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : undefined;

/** `path` with `?next=` the page to come back to (none when there is none). */
export const withNext = (path: string, next: string | undefined): string =>
  next ? `${path}?next=${encodeURIComponent(next)}` : path;

/**
 * Keeps `next` (a path on this site) for after the sign-up's confirmation; a sign-up from nowhere in
 * particular forgets any path an earlier one kept.
 */
export function keepReturnTo(next: string | undefined): void {
  const path = sitePath(next);
  if (path) storage()?.setItem(KEY, path);
  else forgetReturnTo();
}

/** The kept path, if any. */
export const keptReturnTo = (): string | undefined => sitePath(storage()?.getItem(KEY));

/** Forgets the kept path (it is offered once). */
export function forgetReturnTo(): void {
  storage()?.removeItem(KEY);
}
