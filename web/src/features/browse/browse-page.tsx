/**
 * `/`: the books, listed or searched, with filters kept in the address and "More books" pages; a
 * signed-in seller's own listed books above them in their own row (your-listings.tsx).
 */
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { BookGrid } from '#web/features/browse/book-card.tsx';
import { CourseDemand } from '#web/features/browse/course-demand.tsx';
import { FilterForm } from '#web/features/browse/filter-form.tsx';
import { browseHref, type Filters, filtersFrom } from '#web/features/browse/filters.ts';
import { NoResults } from '#web/features/browse/no-results.tsx';
import { booksQuery } from '#web/features/browse/queries.ts';
import { YourListings } from '#web/features/browse/your-listings.tsx';
import { prefillHref } from '#web/prefill.ts';
import { profileQuery } from '#web/queries.ts';
import { Link, navigate, useLocation } from '#web/router.tsx';
import { useRestoring, useSession } from '#web/session.ts';
import { AddToCart } from '#web/ui/cart-button.tsx';
import { ErrorNote } from '#web/ui/form.tsx';
import { CardSkeletons } from '#web/ui/layout.tsx';
import { SaveButton } from '#web/ui/save-button.tsx';

export function BrowsePage() {
  const session = useSession();
  const signedIn = Boolean(session);
  const { query: params } = useLocation();
  const q = params.get('q') ?? '';
  const filters = filtersFrom(params);
  const [text, setText] = useState(q);
  // The pages of one search and filters, kept in the cache: Back shows them again at once. Until
  // the first page of new filters is in, the list shown is the previous one, marked busy.
  // A browser that was signed in waits for its session (a moment) rather than showing every
  // campus's books first and then the student's; without the hint the restore ends at once.
  const awaiting = useRestoring();
  const list = useInfiniteQuery({
    ...booksQuery(q, signedIn, filters),
    placeholderData: keepPreviousData,
    enabled: !awaiting,
  });
  // The caller's campus names the default choice and the heading (getUserData carries it).
  const me = useQuery({ ...profileQuery, enabled: signedIn, select: (u) => u.campus });
  const myCampus = session ? (me.data ?? null) : undefined;
  const where = !session || filters.campus === 'all' ? 'all campuses' : (myCampus ?? 'your campus');
  const books = list.data?.pages.flatMap((p) => p.books) ?? [];
  const search = (e: FormEvent) => {
    e.preventDefault();
    const t = text.trim();
    navigate(browseHref(t, filters));
  };
  return (
    <>
      <h1>{session ? `Welcome, ${session.firstName}` : 'Textbooks from students on your campus'}</h1>
      {!session &&
        (params.get('deleted') === '1' ? (
          <p role="status">Your account was deleted. Thank you for using Campus Books.</p>
        ) : (
          // a visitor learns who sells here and how to join, in one line above the books
          <p className="muted">
            Buy, sell and ask for books with students of your university: <Link href="/signup">sign up</Link>{' '}
            with your .edu e-mail.
          </p>
        ))}
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
      <FilterForm q={q} filters={filters} myCampus={myCampus} error={list.error ?? undefined} />
      {session && !q && <YourListings />}
      <section aria-labelledby="books-h">
        <h2 id="books-h">
          {q
            ? `Results for “${q}”`
            : filters.sort === 'newest' || filters.sort === 'relevance'
              ? 'Newest books'
              : 'Books'}{' '}
          at {where}
        </h2>
        {list.isPending && <CardSkeletons what="books" />}
        {/* a refused search says why ("1 to 100 characters"), not only that it was invalid */}
        <ErrorNote error={list.error} withDetails />
        {q && <CourseDemand q={q} signedIn={signedIn} />}
        {list.data &&
          books.length === 0 &&
          (q ? (
            <NoResults q={q} />
          ) : (
            <EmptyListing
              filters={filters}
              where={where}
              onMyCampus={Boolean(session) && filters.campus !== 'all'}
            />
          ))}
        <BookGrid
          books={books}
          busy={list.isFetching}
          corner={(b) => <SaveButton bookId={b.id} name={b.name} compact />}
          action={(b) => session && <AddToCart bookId={b.id} name={b.name} inCart={b.inCart} small />}
        />
        {list.hasNextPage && (
          <button type="button" onClick={() => list.fetchNextPage()} disabled={list.isFetching}>
            More books
          </button>
        )}
        {/* under the books, where a student finds the one they need is not there (Requests is under More on a phone) */}
        {session && books.length > 0 && (
          <p className="muted">
            Not the book you need? <Link href={prefillHref('/requests', q)}>Ask for it</Link> and hear when
            someone lists it.
          </p>
        )}
      </section>
    </>
  );
}

/**
 * An empty listing says what would show more: the filters that narrow it, else the other campuses
 * (a signed-in student sees their own first), and always selling one's own.
 */
function EmptyListing({
  filters,
  where,
  onMyCampus,
}: {
  filters: Filters;
  where: string;
  onMyCampus: boolean;
}) {
  const narrowed = Boolean(filters.condition || filters.minPrice || filters.maxPrice);
  const sell = <Link href="/sell">sell yours</Link>;
  if (narrowed)
    return (
      <p>
        No books match these filters.{' '}
        <Link href={browseHref('', { ...filters, condition: '', minPrice: '', maxPrice: '' })}>
          Clear the filters
        </Link>
        , or {sell}.
      </p>
    );
  if (onMyCampus)
    return (
      <p>
        No books at {where} yet.{' '}
        <Link href={browseHref('', { ...filters, campus: 'all' })}>See all campuses</Link>, or {sell}.
      </p>
    );
  return <p>No books listed yet. Be the first: {sell}.</p>;
}
