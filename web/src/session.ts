import { useSyncExternalStore } from 'react';
import { storage } from '#web/storage.ts';

/**
 * The signed-in session: the short-lived access token lives in memory only (never in storage or a
 * script-readable cookie). What keeps a user signed in across tabs, e-mailed links and browser
 * restarts is the refresh cookie (HttpOnly, set by the API at login): on start the app asks
 * `POST /api/auth/refresh` for a new access token (web/src/refresh.ts). Until that answer is in,
 * the session is `restoring` and pages that need one wait instead of sending the user to log in.
 */
export interface Session {
  token: string;
  expiresAt: string;
  firstName: string;
  userId: string;
}

let current: Session | null = null;
let restoring = true;

/**
 * Whether this browser was signed in when last seen: a hint kept in localStorage (no token, no
 * name). With it, the app asks for the session at start and the home page waits for it instead of
 * first showing every campus's books and then the student's; without it (a visitor, or a browser
 * whose site data was cleared) the app does not ask, so a visitor's first screen waits for no
 * refresh call and its console shows no 401. Only a hint: the refresh cookie decides.
 */
const HINT = 'cb_signed_in';
const hinted = storage()?.getItem(HINT) === '1';

/** Where drafts.ts keeps what was typed into a form, per user: every one goes when a session ends. */
export const DRAFT_PREFIX = 'cb_draft:';
function clearDrafts(): void {
  const kept = storage();
  if (!kept) return;
  const keys = Array.from({ length: kept.length }, (_, i) => kept.key(i));
  for (const key of keys) if (key?.startsWith(DRAFT_PREFIX)) kept.removeItem(key);
}

/** Whether this browser was signed in when last seen (the app asks for its session only then). */
export const hadSession = (): boolean => hinted;
const listeners = new Set<() => void>();

export function getSession(): Session | null {
  return current;
}

const userChanges = new Set<() => void>();

function store(next: Session | null): void {
  current = next;
  for (const l of listeners) l();
}

/**
 * Starts (log in) or ends (log out, expiry, deletion) a session: the user changes. `keepHint`: no
 * session now, but the browser may still have one (its refresh got no answer), so the next page
 * asks again.
 */
export function setSession(next: Session | null, options: { keepHint?: boolean } = {}): void {
  // Told first, before any component renders with the new session (the cache of the old user goes).
  for (const l of userChanges) l();
  restoring = false;
  if (next) storage()?.setItem(HINT, '1');
  else if (!options.keepHint) {
    storage()?.removeItem(HINT);
    clearDrafts();
  }
  store(next);
}

/** The same user's session with a new token (a refresh, or a password change ending the other sessions). */
export function replaceToken(token: string, expiresAt?: string): void {
  if (current) store({ ...current, token, expiresAt: expiresAt ?? current.expiresAt });
}

/** Whether the session of the refresh cookie is still being asked for (the app just started). */
export function isRestoring(): boolean {
  return restoring;
}

/** Calls `listener` each time a session starts or ends. */
export function onUserChange(listener: () => void): () => void {
  userChanges.add(listener);
  return () => userChanges.delete(listener);
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current session, re-rendering the component when it changes. */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession);
}

/** Whether the app is still restoring the session at start, re-rendering when that ends. */
export function useRestoring(): boolean {
  return useSyncExternalStore(subscribeSession, isRestoring);
}
