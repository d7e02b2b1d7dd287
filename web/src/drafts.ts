/**
 * What a student typed, kept in this browser until it is sent (the Sell form's fields, the message
 * box of each conversation):
 * a reload, a phone dropping the tab in the background or a tap on another page loses nothing.
 * Kept per user (`cb_draft:<user id>:<form>` in localStorage) and removed when it is sent, cleared
 * by hand, and for every user when a session ends on this browser (session.ts `setSession`), so a
 * shared computer keeps no one's draft after they log out. Photos are not kept: a File cannot be.
 */
import { DRAFT_PREFIX, getSession } from '#web/session.ts';
import { storage } from '#web/storage.ts';

const keyOf = (form: string): string | null => {
  const userId = getSession()?.userId;
  return userId ? `${DRAFT_PREFIX}${userId}:${form}` : null;
};

/** The signed-in user's draft of `form`, if one is kept and `parse` accepts it (else null). */
export function readDraft<T>(form: string, parse: (raw: unknown) => T | null): T | null {
  const key = keyOf(form);
  const raw = key ? storage()?.getItem(key) : null;
  if (!raw) return null;
  try {
    return parse(JSON.parse(raw));
  } catch {
    return null;
  }
}

/** Keeps `value` as the signed-in user's draft of `form`; `null` removes it (sent, cleared, empty). */
export function writeDraft(form: string, value: unknown): void {
  const key = keyOf(form);
  if (!key) return;
  try {
    if (value === null) storage()?.removeItem(key);
    else storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or refused (private mode): the form still works, only without its draft
  }
}
