import { useSyncExternalStore } from 'react';

/**
 * The signed-in session: the JWT lives in memory and in sessionStorage (one tab, gone when the tab
 * closes), never in localStorage or a cookie. Components subscribe to changes.
 */
const KEY = 'campus-books.session';

export interface Session {
  token: string;
  expiresAt: string;
  firstName: string;
}

let current: Session | null = read();
const listeners = new Set<() => void>();

function read(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function getSession(): Session | null {
  return current;
}

const userChanges = new Set<() => void>();

function store(next: Session | null): void {
  current = next;
  if (next) sessionStorage.setItem(KEY, JSON.stringify(next));
  else sessionStorage.removeItem(KEY);
  for (const l of listeners) l();
}

/** Starts (log in) or ends (log out, expiry, deletion) a session: the user changes. */
export function setSession(next: Session | null): void {
  // Told first, before any component renders with the new session (the cache of the old user goes).
  for (const l of userChanges) l();
  store(next);
}

/** The same user's session with a new token (after a password change ends the other sessions). */
export function replaceToken(token: string): void {
  if (current) store({ ...current, token });
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
