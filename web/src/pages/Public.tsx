/** Browsing and the plain pages anyone can open. */
import { type FormEvent, useState } from 'react';
import { useSession } from '#web/App.tsx';
import { api, call, money } from '#web/api.ts';
import type { Book, BookDetail } from '#web/books.ts';
import { Gallery } from '#web/photos.tsx';
import { Link, navigate, useLocation } from '#web/router.tsx';
import { BookSummary, ErrorNote, Field, Loading, useAction, useLoad } from '#web/ui.tsx';

const PAGE = 20;

interface Page {
  books: Book[];
  next: string | null;
}

/** One page of books: public listing/search without a session, the caller's view with one. */
async function loadPage(query: string, signedIn: boolean, cursor: string | null): Promise<Page> {
  const limit = String(PAGE);
  if (query) {
    const params = { path: { query }, query: { limit, ...(cursor ? { cursor } : {}) } };
    const r = signedIn
      ? await api.GET('/api/books/search/{query}', { params })
      : await api.GET('/api/books/search/public/{query}', { params });
    const books = await call(Promise.resolve(r));
    return { books, next: r.data?.next ?? null };
  }
  if (signedIn) {
    const r = await api.GET('/api/books/getAllBooks', {
      params: { query: { limit, ...(cursor ? { cursor } : {}) } },
    });
    return { books: await call(Promise.resolve(r)), next: r.data?.next ?? null };
  }
  const skip = Number(cursor ?? 0);
  const books = await call(
    api.GET('/api/books/getBooksNoToken/{limit}/{skip}', { params: { path: { limit, skip: String(skip) } } }),
  );
  return { books, next: books.length === PAGE ? String(skip + PAGE) : null };
}

function Home() {
  const stats = useLoad(() => call(api.GET('/api/user/getUserStatistics')), []);
  const matches = useLoad(() => call(api.GET('/api/books/getUserMatches')), []);
  if (!stats.data) return null;
  return (
    <section aria-labelledby="home-h">
      <h2 id="home-h">Your activity</h2>
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
    </section>
  );
}

export function BrowsePage() {
  const session = useSession();
  const { query: params } = useLocation();
  const q = params.get('q') ?? '';
  const [text, setText] = useState(q);
  const [more, setMore] = useState<Page[]>([]);
  const first = useLoad(async () => {
    setMore([]);
    return loadPage(q, Boolean(session), null);
  }, [q, session?.token]);
  const cart = useAction();
  const [added, setAdded] = useState<Set<string>>(new Set());
  const pages = first.data ? [first.data, ...more] : [];
  const books = pages.flatMap((p) => p.books);
  const next = pages.at(-1)?.next ?? null;
  const search = (e: FormEvent) => {
    e.preventDefault();
    const t = text.trim();
    navigate(t ? `/?q=${encodeURIComponent(t)}` : '/');
  };
  const loadMore = async () => {
    const page = await loadPage(q, Boolean(session), next);
    setMore((m) => [...m, page]);
  };
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
      <section aria-labelledby="books-h">
        <h2 id="books-h">{q ? `Results for “${q}”` : 'Newest books'}</h2>
        {first.loading && !first.data && <Loading what="books" />}
        <ErrorNote error={first.error ?? cart.error} />
        {first.data && books.length === 0 && <p>No books found.</p>}
        <ul className="books">
          {books.map((b) => (
            <li key={b.id}>
              <BookSummary book={b}>
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
              </BookSummary>
            </li>
          ))}
        </ul>
        {next && (
          <button type="button" onClick={loadMore}>
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
  const [reason, setReason] = useState<keyof typeof REPORT_REASONS>('spam');
  const [details, setDetails] = useState('');
  const [sent, setSent] = useState(false);
  const { error, busy, run } = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = { bookId: book.id, reason, ...(details.trim() ? { details } : {}) };
    if (await run(() => call(api.POST('/api/books/reportBook', { body })))) setSent(true);
  };
  if (sent) return <p role="status">Thank you: the administrators will look at this listing.</p>;
  return (
    <details className="report">
      <summary>Report this listing</summary>
      <form onSubmit={submit}>
        <Field
          name="reason"
          label="What is wrong?"
          options={Object.keys(REPORT_REASONS)}
          labels={REPORT_REASONS}
          value={reason}
          onChange={(v) => setReason(v as keyof typeof REPORT_REASONS)}
          error={error?.field('reason')}
        />
        <Field
          name="details"
          label="Details (optional)"
          multiline
          value={details}
          onChange={setDetails}
          error={error?.field('details')}
        />
        <ErrorNote error={error} />
        <button type="submit" disabled={busy}>
          Report {book.name}
        </button>
      </form>
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
      <p>The deployer of this site edits this page (web/src/pages/Public.tsx) with its own text.</p>
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
