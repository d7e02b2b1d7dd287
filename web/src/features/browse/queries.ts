/** The book lists' server state: the pages of a listing or a search, under `keys.bookLists`. */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { ApiFailure, api, call } from '#web/api.ts';
import type { Book } from '#web/books.ts';
import { browseHref, type Filters, listingQuery, searchQuery } from '#web/features/browse/filters.ts';
import { keys } from '#web/queries.ts';

const PAGE = 20;

interface Page {
  books: Book[];
  next: string | null;
}

/**
 * One page of books: search (public without a session, the caller's view with one) or the listing
 * (getAllBooks: with a token the caller's campus by default, without one every campus), filtered.
 */
async function loadPage(
  query: string,
  signedIn: boolean,
  filters: Filters,
  cursor: string | null,
): Promise<Page> {
  // nothing to search by (".", "..": a path the browser would even rewrite): said in words, no call
  if (query && !/[\p{L}\p{N}]/u.test(query))
    throw new ApiFailure(
      400,
      { error: 'Search for a word of the title, an author, a course or an ISBN.', code: 'VALIDATION_FAILED' },
      new Response(),
    );
  const page = { limit: String(PAGE), ...(cursor ? { cursor } : {}) };
  const r = !query
    ? await api.GET('/api/books/getAllBooks', { params: { query: { ...page, ...listingQuery(filters) } } })
    : await (signedIn
        ? api.GET('/api/books/search/{query}', {
            params: { path: { query }, query: { ...page, ...searchQuery(filters) } },
          })
        : api.GET('/api/books/search/public/{query}', {
            params: { path: { query }, query: { ...page, ...searchQuery(filters) } },
          }));
  const books = await call(Promise.resolve(r));
  return { books, next: r.data?.next ?? null };
}

/** The pages of one search text and filters, with or without a session, loaded one "More books" at a time. */
export const booksQuery = (q: string, signedIn: boolean, filters: Filters) =>
  infiniteQueryOptions({
    queryKey: [...keys.bookLists, browseHref(q, filters), signedIn],
    queryFn: ({ pageParam }) => loadPage(q, signedIn, filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });

/**
 * The open requests of a course at the caller's campus (issue 33, item 6), for the "students want
 * this book" line beside a course search; one counting Query on the service.
 */
export const courseRequestsQuery = (course: string) =>
  queryOptions({
    queryKey: [...keys.books, 'courseRequests', course],
    queryFn: () => call(api.GET('/api/books/courseRequests/{course}', { params: { path: { course } } })),
    staleTime: 60_000,
  });
