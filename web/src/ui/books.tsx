/** Book rows, a purchase's progress and the amounts of a cart or an order. */
import type { ReactNode } from 'react';
import { bookPrice, money } from '#web/api.ts';
import { type Book, conditionName, courseText } from '#web/books.ts';
import { Link } from '#web/router.tsx';
import { useSession } from '#web/session.ts';
import { type Photo, Thumbnail } from '#web/ui/photos.tsx';

export const STATUS_LABELS: Record<number, string> = {
  0: 'Listed',
  1: 'Bought, waiting for the hand-over check',
  2: 'Checked, buyer charged',
  3: 'Handed over, seller paid',
  5: 'Unlisted',
};

/** What a book row shows: the listing's book type, generated from the API document. */
export type BookLike = Pick<
  Book,
  | 'id'
  | 'name'
  | 'edition'
  | 'course'
  | 'price'
  | 'condition'
  | 'comments'
  | 'ISBN'
  | 'owner'
  | 'author'
  | 'coverUrl'
> & { photos?: Photo[] };

export function BookSummary({
  book,
  linked = false,
  children,
}: {
  book: BookLike;
  /** the title opens the book's page */
  linked?: boolean;
  children?: ReactNode;
}) {
  // one's own book (My listings, Books I sold) is not "sold by" oneself
  const mine = useSession()?.userId === book.owner.id;
  return (
    <article className="book" aria-labelledby={`book-${book.id}`}>
      <Thumbnail name={book.name} photos={book.photos} coverUrl={book.coverUrl} course={book.course} />
      <h3 id={`book-${book.id}`}>
        {linked ? <Link href={`/books/${encodeURIComponent(book.id)}`}>{book.name}</Link> : book.name}{' '}
        <span className="muted">(edition {book.edition})</span>
      </h3>
      {book.author && <p className="author">by {book.author}</p>}
      <p>
        <strong>{bookPrice(book.price)}</strong> · {courseText(book.course)} · {conditionName(book.condition)}
        {book.ISBN ? ` · ISBN ${book.ISBN}` : ''}
        {mine ? '' : ` · sold by ${book.owner.firstName}`}
      </p>
      {book.comments && <p className="muted">{book.comments}</p>}
      {children}
    </article>
  );
}

/** A list of book rows: `children` adds a book's own lines and buttons, `inactive` greys its row. */
export function BookList<B extends BookLike & { status?: number }>({
  books,
  status,
  inactive,
  busy,
  linked,
  children,
}: {
  books: B[] | undefined;
  /** each title opens its book's page */
  linked?: boolean;
  /** shows each book's status first */
  status?: boolean;
  inactive?: (book: B) => boolean;
  /** said while the list shown is about to be replaced */
  busy?: boolean;
  children?: (book: B) => ReactNode;
}) {
  return (
    <ul className="books" aria-busy={busy}>
      {books?.map((b) => (
        <li key={b.id} className={inactive?.(b) ? 'inactive' : undefined}>
          <BookSummary book={b} linked={linked}>
            {status && b.status !== undefined && <p>Status: {STATUS_LABELS[b.status]}</p>}
            {children?.(b)}
          </BookSummary>
        </li>
      ))}
    </ul>
  );
}

/** The amounts of a cart or an order, as the service computed them. */
export function Amounts({ amounts }: { amounts: { subtotal: number; fee: number; total: number } }) {
  return (
    <dl className="details">
      <dt>Subtotal</dt>
      <dd>{money(amounts.subtotal)}</dd>
      <dt>Service fee (5 %)</dt>
      <dd>{money(amounts.fee)}</dd>
      <dt>Total</dt>
      <dd>{money(amounts.total)}</dd>
    </dl>
  );
}

/** The steps of a purchase, in the same words on the orders list and the order page (its timeline). */
export const STEP_LABELS = {
  bought: 'Bought',
  verified: 'Checked and charged',
  delivered: 'Handed over and paid',
} as const;

const PROGRESS = [
  [1, STEP_LABELS.bought],
  [2, STEP_LABELS.verified],
  [3, STEP_LABELS.delivered],
] as const;

/** A purchased book's steps, one a line as on its order page: the ones to come say "not yet". */
export function Progress({ status }: { status: number }) {
  return (
    <ol className="progress" aria-label="Progress">
      {PROGRESS.map(([s, label]) => (
        <li
          key={s}
          aria-current={status === s ? 'step' : undefined}
          className={status >= s ? 'done' : undefined}
        >
          {status >= s ? label : `${label}: not yet`}
        </li>
      ))}
    </ol>
  );
}
