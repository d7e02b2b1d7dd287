/**
 * The Sell form's ISBN lookup (issue 33, items 1 and 4): once the ISBN field holds a whole ISBN-10
 * or 13, `lookupIsbn` is asked once per ISBN (kept in the query cache) for the book's data and the
 * price hint. The form fills only the fields the seller left empty; a lookup that fails or finds
 * nothing never blocks posting, it only says so.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { money } from '#web/api.ts';
import { COVER_ORIGIN } from '#web/csp.ts';
import { lookupQuery } from '#web/features/sell/queries.ts';

/** The ISBN typed, without hyphens and spaces, when it has the length of one (the API checks the check digit). */
export function wholeIsbn(typed: string): string | null {
  const digits = typed.replace(/[\s-]/g, '');
  return /^(\d{9}[\dXx]|97[89]\d{10})$/.test(digits) ? digits.toUpperCase() : null;
}

export type Lookup = Awaited<ReturnType<NonNullable<ReturnType<typeof lookupQuery>['queryFn']>>>;

/** The lookup of the ISBN typed so far (idle until it is a whole ISBN). */
export function useIsbnLookup(typed: string) {
  const isbn = wholeIsbn(typed);
  return useQuery({ ...lookupQuery(isbn ?? ''), enabled: isbn !== null });
}

/** "4 copies sold here for $12.00-$30.00 (median $20.00)". */
export function priceHintText(hint: NonNullable<Lookup['priceHint']>): string {
  const where = hint.scope === 'campus' ? 'on your campus' : 'on all campuses';
  const range = `${money(hint.lowCents / 100)}–${money(hint.highCents / 100)}`;
  return `${hint.count} copies sold ${where} for ${range} (median ${money(hint.medianCents / 100)}).`;
}

/** What the lookup found, in one or two lines under the ISBN field. */
export function LookupNote({ lookup }: { lookup: ReturnType<typeof useIsbnLookup> }) {
  if (lookup.isFetching) return <p className="muted">Looking up the ISBN…</p>;
  if (lookup.error)
    return <p className="muted">{lookup.error.message} You can fill in the fields yourself.</p>;
  const found = lookup.data;
  if (!found) return null;
  const { book, priceHint } = found;
  const facts = book && [book.publisher, book.year].filter(Boolean).join(', ');
  return (
    <div role="status" className="lookup">
      {book ? (
        <p>
          Found “{book.title}”{book.authors.length > 0 && ` by ${book.authors.join(', ')}`}
          {facts && ` (${facts})`}: the empty fields are filled in.
        </p>
      ) : found.source === 'unavailable' ? (
        <p className="muted">The book data could not be reached just now: fill in the fields yourself.</p>
      ) : (
        <p className="muted">No book data for this ISBN: fill in the fields yourself.</p>
      )}
      {priceHint && <p>{priceHintText(priceHint)}</p>}
    </div>
  );
}

/**
 * The looked-up book's cover beside the form, only from the cover host the CSP's `img-src` names
 * (COVER_ORIGIN); nothing when there is none or it does not load. The cover is posted with the
 * book and is its picture until the seller adds photos, unless the seller says not to use it.
 */
export function LookupCover({
  book,
  used,
  onUse,
}: {
  book: NonNullable<Lookup['book']> | null | undefined;
  used: boolean;
  onUse: (use: boolean) => void;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const url = book?.coverUrl;
  if (!book || !url || failed === url || new URL(url).origin !== COVER_ORIGIN) return null;
  if (!used)
    return (
      <p className="lookup-cover muted">
        The cover will not be shown with your book.{' '}
        <button type="button" className="link" onClick={() => onUse(true)}>
          Use the cover
        </button>
      </p>
    );
  return (
    <figure className="lookup-cover">
      <img src={url} alt={`Cover of “${book.title}”`} onError={() => setFailed(url)} />
      <figcaption className="muted">
        Cover from Open Library: your book’s picture until you add photos.{' '}
        <button type="button" className="link" onClick={() => onUse(false)}>
          Don’t use it
        </button>
      </figcaption>
    </figure>
  );
}
