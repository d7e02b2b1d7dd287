/** Browsing and the plain pages anyone can open. */
import { type FormEvent, useRef, useState } from 'react';
import { type ApiFailure, api, call, money } from '#web/api.ts';
import { useSession } from '#web/app.tsx';
import type { Book, BookDetail } from '#web/books.ts';
import {
  browseHref,
  CONDITION_LABELS,
  CONDITIONS,
  type Filters,
  filtersFrom,
  listingQuery,
  SEARCH_SORTS,
  SORT_LABELS,
  type Sort,
  searchQuery,
} from '#web/browse.ts';
import { Gallery } from '#web/photos.tsx';
import { Link, navigate, useLocation } from '#web/router.tsx';
import {
  BookList,
  ErrorNote,
  Field,
  Form,
  Loading,
  Section,
  useAction,
  useFields,
  useLoad,
  useSubmit,
} from '#web/ui.tsx';

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

/** The campus, condition, price and order controls; applied by their button (keyboard: Enter). */
function FilterForm({
  q,
  filters,
  myCampus,
  error,
}: {
  q: string;
  filters: Filters;
  /** the signed-in caller's campus; undefined without a session (every campus is shown) */
  myCampus: string | null | undefined;
  error: ApiFailure | undefined;
}) {
  const [draft, setDraft] = useState(filters);
  const set = (k: keyof Filters) => (v: string) => setDraft((d) => ({ ...d, [k]: v }));
  const sorts = (q ? SEARCH_SORTS : Object.keys(SORT_LABELS)) as Sort[];
  const apply = (e: FormEvent) => {
    e.preventDefault();
    navigate(browseHref(q, draft));
  };
  return (
    <form onSubmit={apply} className="filters" aria-label="Narrow the books">
      {myCampus !== undefined && (
        <Field
          name="campus"
          label="Campus"
          options={['', 'all']}
          labels={{ '': `My campus${myCampus ? ` (${myCampus})` : ''}`, all: 'All campuses' }}
          value={draft.campus}
          onChange={set('campus')}
          error={error?.field('campus')}
        />
      )}
      <Field
        name="condition"
        label="Condition"
        options={['', ...CONDITIONS]}
        labels={CONDITION_LABELS}
        value={draft.condition}
        onChange={set('condition')}
        error={error?.field('condition')}
      />
      {(['minPrice', 'maxPrice'] as const).map((k) => (
        <Field
          key={k}
          name={k}
          label={k === 'minPrice' ? 'Lowest price in dollars' : 'Highest price in dollars'}
          type="number"
          min={0}
          step="0.01"
          value={draft[k]}
          onChange={set(k)}
          error={error?.field(k)}
        />
      ))}
      {sorts.length > 1 && (
        <Field
          name="sort"
          label="Sort"
          options={sorts}
          labels={SORT_LABELS}
          value={draft.sort}
          onChange={set('sort')}
          error={error?.field('sort')}
        />
      )}
      <button type="submit">Apply filters</button>
    </form>
  );
}

function Home() {
  const stats = useLoad(() => call(api.GET('/api/user/getUserStatistics')), []);
  const matches = useLoad(() => call(api.GET('/api/books/getUserMatches')), []);
  if (!stats.data) return null;
  return (
    <Section id="home-h" title="Your activity">
      <ul className="stats">
        <li>{stats.data.activeListings} active listings</li>
        <li>{stats.data.openRequests} open requests</li>
        <li>{stats.data.numberOfBooksBought} books bought</li>
        <li>{stats.data.numberOfBooksSold} books sold</li>
        <li>{money(stats.data.moneyMade)} earned</li>
        <li>
          <Link href="/requests">{matches.data?.length ?? 0} books match your requests</Link>
        </li>
      </ul>
    </Section>
  );
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
      {session && <Home />}
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

const REPORT_REASONS = {
  spam: 'Spam or a fake listing',
  prohibited: 'Not allowed on this site',
  'wrong-info': 'Wrong title, edition or condition',
  offensive: 'Offensive',
  other: 'Something else',
} as const;

/** Tells the administrators that a listing breaks the rules (once per student and book). */
function ReportForm({ book }: { book: BookDetail }) {
  const { form, bind } = useFields<{ reason: keyof typeof REPORT_REASONS; details: string }>({
    reason: 'spam',
    details: '',
  });
  const { error, busy, done, submit } = useSubmit(() => {
    const { reason, details } = form;
    const body = { bookId: book.id, reason, ...(details.trim() ? { details } : {}) };
    return call(api.POST('/api/books/reportBook', { body }));
  });
  if (done) return <p role="status">Thank you: the administrators will look at this listing.</p>;
  return (
    <details className="report">
      <summary>Report this listing</summary>
      <Form onSubmit={submit} error={error} busy={busy} button={`Report ${book.name}`}>
        <Field
          {...bind('reason', error)}
          label="What is wrong?"
          options={Object.keys(REPORT_REASONS)}
          labels={REPORT_REASONS}
        />
        <Field {...bind('details', error)} label="Details (optional)" multiline />
      </Form>
    </details>
  );
}

export function BookPage({ id }: { id: string }) {
  const session = useSession();
  const loaded = useLoad(
    () => call(api.GET('/api/books/getBook/{bookId}', { params: { path: { bookId: id } } })),
    [id, session?.token],
  );
  const cart = useAction();
  const [added, setAdded] = useState(false);
  const book = loaded.data;
  if (!book)
    return (
      <section>
        <h1>Book</h1>
        {loaded.loading ? (
          <Loading what="the book" />
        ) : (
          <p>
            {loaded.error?.status === 404 ? 'This book is not listed.' : loaded.error?.message}{' '}
            <Link href="/">Back to the books</Link>.
          </p>
        )}
      </section>
    );
  return (
    <section>
      <h1>{book.name}</h1>
      <Gallery name={book.name} photos={book.photos} />
      <dl className="details">
        <dt>Price</dt>
        <dd>{money(book.price)}</dd>
        <dt>Edition</dt>
        <dd>{book.edition}</dd>
        <dt>Course</dt>
        <dd>{book.course}</dd>
        <dt>Condition</dt>
        <dd>{book.condition}</dd>
        <dt>ISBN</dt>
        <dd>{book.ISBN ?? '—'}</dd>
        <dt>Seller</dt>
        <dd>{book.owner.firstName}</dd>
        <dt>Listed</dt>
        <dd>{new Date(book.date).toLocaleDateString()}</dd>
        <dt>Comments</dt>
        <dd className="pre">{book.comments || '—'}</dd>
      </dl>
      {!session ? (
        <p>
          <Link href={`/login?next=${encodeURIComponent(`/books/${book.id}`)}`}>Log in</Link> to buy it.
        </p>
      ) : book.inCart || added ? (
        <p>
          In your cart. <Link href="/cart">Go to the cart</Link>.
        </p>
      ) : (
        book.status === 0 && (
          <button
            type="button"
            disabled={cart.busy}
            onClick={() =>
              cart.run(async () => {
                await call(api.POST('/api/user/addToCart', { body: { bookId: book.id } }));
                setAdded(true);
              })
            }
          >
            Add to cart
          </button>
        )
      )}
      <ErrorNote error={cart.error} />
      {session && <ReportForm book={book} />}
    </section>
  );
}

export function EmailConfirmedPage() {
  return (
    <section>
      <h1>Your account is confirmed</h1>
      <p>
        Welcome to Campus Books. <Link href="/login">Log in</Link> to sell and buy books.
      </p>
    </section>
  );
}

/** A plain page the deployer edits: a title, its text, and where to edit it. */
function PlainPage({ title, children }: { title: string; children: string }) {
  return (
    <section>
      <h1>{title}</h1>
      <p>{children}</p>
      <p>The deployer of this site edits this page (web/src/pages/public.tsx) with its own text.</p>
    </section>
  );
}

export function TermsPage() {
  return (
    <PlainPage title="Terms of use">
      Campus Books connects students who sell used textbooks with students who buy them. List only books you
      own, describe their condition honestly and hand them over as agreed. The service charges a fee of 5 % of
      each purchase. Administrators may unlist books and suspend accounts that break these terms.
    </PlainPage>
  );
}

export function PrivacyPage() {
  return (
    <PlainPage title="Privacy">
      We keep your name, university e-mail address, campus mailbox and payment username to arrange hand-overs
      and payments. Your mailbox and payment username are shown only to administrators who arrange a sale. The
      site stores your session in this browser tab only and uses no third-party scripts, fonts or trackers.
    </PlainPage>
  );
}

export function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        <Link href="/">Back to the books</Link>.
      </p>
    </section>
  );
}
