/** `/`: the books, listed or searched, with filters kept in the address and "More books" pages. */
import { type FormEvent, useRef, useState } from 'react';
import { api, call } from '#web/api.ts';
import type { Book } from '#web/books.ts';
import { Activity } from '#web/features/browse/activity.tsx';
import { FilterForm } from '#web/features/browse/filter-form.tsx';
import {
  browseHref,
  type Filters,
  filtersFrom,
  listingQuery,
  searchQuery,
} from '#web/features/browse/filters.ts';
import { Link, navigate, useLocation } from '#web/router.tsx';
import { useSession } from '#web/session.ts';
import { BookList } from '#web/ui/books.tsx';
import { ErrorNote } from '#web/ui/form.tsx';
import { useAction, useLoad } from '#web/ui/hooks.ts';
import { Loading } from '#web/ui/layout.tsx';

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

export function BrowsePage() {
  const session = useSession();
  const { query: params } = useLocation();
  const q = params.get('q') ?? '';
  const filters = filtersFrom(params);
  const filterKey = browseHref(q, filters);
  const shownKey = useRef(filterKey);
  shownKey.current = filterKey;
  const [text, setText] = useState(q);
  const [more, setMore] = useState<Page[]>([]);
  const paging = useAction();
  const first = useLoad(async () => {
    setMore([]);
    return { ...(await loadPage(q, Boolean(session), filters, null)), key: filterKey };
  }, [filterKey, session?.token]);
  // Until the page of the current filters is in, the list shown is the previous one: busy.
  const busy = first.loading || paging.busy || (first.data !== undefined && first.data.key !== filterKey);
  // The caller's campus names the default choice and the heading (getUserData carries it).
  const me = useLoad(
    async () => (session ? (await call(api.GET('/api/user/getUserData'))).campus : null),
    [session?.token],
  );
  const myCampus = session ? (me.data ?? null) : undefined;
  const where = !session || filters.campus === 'all' ? 'all campuses' : (myCampus ?? 'your campus');
  const cart = useAction();
  const [added, setAdded] = useState<Set<string>>(new Set());
  const pages = first.data ? [first.data, ...more] : [];
  const books = pages.flatMap((p) => p.books);
  const next = pages.at(-1)?.next ?? null;
  const search = (e: FormEvent) => {
    e.preventDefault();
    const t = text.trim();
    navigate(browseHref(t, filters));
  };
  const loadMore = () =>
    paging.run(async () => {
      const asked = filterKey;
      const page = await loadPage(q, Boolean(session), filters, next);
      // A page of other filters (changed while it loaded) is dropped.
      if (shownKey.current === asked) setMore((m) => [...m, page]);
    });
  const add = (bookId: string) =>
    cart.run(async () => {
      await call(api.POST('/api/user/addToCart', { body: { bookId } }));
      setAdded((s) => new Set(s).add(bookId));
    });
  return (
    <>
      <h1>{session ? `Welcome back, ${session.firstName}` : 'Textbooks from students on your campus'}</h1>
      {!session && params.get('deleted') === '1' && (
        <p role="status">Your account was deleted. Thank you for using Campus Books.</p>
      )}
      {session && <Activity />}
      <search>
        <form onSubmit={search} className="search">
          <label htmlFor="q">Search by title, course or ISBN</label>
          <input
            id="q"
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={100}
          />
          <button type="submit">Search</button>
        </form>
      </search>
      <FilterForm key={filterKey} q={q} filters={filters} myCampus={myCampus} error={first.error} />
      <section aria-labelledby="books-h">
        <h2 id="books-h">
          {q ? `Results for “${q}”` : filters.sort === 'newest' ? 'Newest books' : 'Books'} at {where}
        </h2>
        {first.loading && !first.data && <Loading what="books" />}
        <ErrorNote error={first.error ?? paging.error ?? cart.error} />
        {first.data && books.length === 0 && <p>No books found.</p>}
        <BookList books={books} busy={busy}>
          {(b) => (
            <p>
              <Link href={`/books/${encodeURIComponent(b.id)}`}>Details of {b.name}</Link>
              {session &&
                (b.inCart || added.has(b.id) ? (
                  <span className="tag"> In your cart</span>
                ) : (
                  <button type="button" onClick={() => add(b.id)} disabled={cart.busy}>
                    Add {b.name} to cart
                  </button>
                ))}
            </p>
          )}
        </BookList>
        {next && (
          <button type="button" onClick={loadMore} disabled={paging.busy}>
            More books
          </button>
        )}
      </section>
    </>
  );
}
