/**
 * One book in the browse grid: the photo (or the looked-up or a generated cover) first, title, price and condition;
 * the whole card is one link to the book's page. `action` is a small control inside the card (add
 * to cart) that works without following the link; `corner` sits on the picture's top right (the
 * heart, as marketplaces put it). The one place a card's markup lives.
 */
import type { ReactNode } from 'react';
import { bookPrice } from '#web/api.ts';
import { conditionName, courseText } from '#web/books.ts';
import { Link } from '#web/router.tsx';
import type { BookLike } from '#web/ui/books.tsx';
import { Cover } from '#web/ui/photos.tsx';

export function BookCard({
  book,
  action,
  corner,
}: {
  book: BookLike;
  action?: ReactNode;
  corner?: ReactNode;
}) {
  const first = book.photos?.[0];
  return (
    <article className="card" aria-labelledby={`book-${book.id}`}>
      {first ? (
        <img
          className="card-image"
          src={first.thumbnailUrl}
          alt={`The book ${book.name}`}
          width={240}
          height={240}
        />
      ) : (
        <Cover name={book.name} course={book.course} coverUrl={book.coverUrl} />
      )}
      <h3 id={`book-${book.id}`}>
        {/* A stretched link: its ::after covers the card, so a tap anywhere opens the book; its
            name is the title it shows (WCAG 2.5.3: no aria-label that differs from the text). */}
        <Link href={`/books/${encodeURIComponent(book.id)}`} className="card-link">
          {book.name}
        </Link>
      </h3>
      <p className="card-meta">
        <strong>{bookPrice(book.price)}</strong> · {conditionName(book.condition)}
        <span className="muted"> · {courseText(book.course)}</span>
      </p>
      {corner && <div className="card-corner">{corner}</div>}
      {action && <div className="card-action">{action}</div>}
    </article>
  );
}

/** A grid of book cards: 2 columns on a phone, 4 or more on a desktop. */
export function BookGrid<B extends BookLike>({
  books,
  busy,
  action,
  corner,
}: {
  books: B[];
  busy?: boolean;
  action?: (book: B) => ReactNode;
  corner?: (book: B) => ReactNode;
}) {
  return (
    <ul className="books grid" aria-busy={busy}>
      {books.map((b) => (
        <li key={b.id}>
          <BookCard book={b} action={action?.(b)} corner={corner?.(b)} />
        </li>
      ))}
    </ul>
  );
}
