/**
 * The caller's saved books, read once and kept in the query cache: every heart on every page reads
 * it from there, so a heart costs no request. Saving or unsaving refreshes it (at most 2 requests
 * for the 200 books a user can save, 100 a page).
 */
import { api, call } from '#web/api.ts';
import { read } from '#web/queries.ts';

export const savedKey = ['saved'] as const;

async function savedPage(cursor: string | null) {
  const r = await api.GET('/api/user/getSavedBooks', {
    params: { query: { limit: '100', ...(cursor ? { cursor } : {}) } },
  });
  const items = await call(Promise.resolve(r));
  return { items, next: r.data?.next ?? null };
}

export type SavedBook = Awaited<ReturnType<typeof savedPage>>['items'][number];

/** Every saved book, newest saved first. */
export const savedQuery = {
  ...read(savedKey, async () => {
    const all: SavedBook[] = [];
    let cursor: string | null = null;
    do {
      const page = await savedPage(cursor);
      all.push(...page.items);
      cursor = page.next;
    } while (cursor);
    return all;
  }),
  // read once per session (the cache is emptied when the user changes); saving and unsaving refresh it
  staleTime: Number.POSITIVE_INFINITY,
};
