/**
 * The ISBN lookup of the Sell form and the request form (issue 33, items 1 and 4): once the ISBN
 * field holds a whole ISBN-10 or 13, `lookupIsbn` is asked once per ISBN (kept in the query cache:
 * a book's data does not change) for the book's data and the price hint. A form fills only the
 * fields the student left empty; a lookup that fails or finds nothing never blocks sending the
 * form, it only says so.
 */
import { useQuery } from '@tanstack/react-query';
import { type Dispatch, type SetStateAction, useEffect, useRef } from 'react';
import { money } from '#web/api.ts';
import { lookupQuery } from '#web/queries.ts';

/** The ISBN typed, without hyphens and spaces, when it has the length of one (the API checks the check digit). */
export function wholeIsbn(typed: string): string | null {
  const digits = typed.replace(/[\s-]/g, '');
  return /^(\d{9}[\dXx]|97[89]\d{10})$/.test(digits) ? digits.toUpperCase() : null;
}

export type Lookup = Awaited<ReturnType<NonNullable<ReturnType<typeof lookupQuery>['queryFn']>>>;

/**
 * The lookup of the ISBN typed so far (idle until it is a whole ISBN). When it finds a book, the
 * form's values go through `fill` once (`update` is useFields' setter), which fills only what the
 * student left empty.
 */
export function useIsbnLookup<F>(
  typed: string,
  update: Dispatch<SetStateAction<F>>,
  fill: (form: F, book: NonNullable<Lookup['book']>) => F,
) {
  const isbn = wholeIsbn(typed);
  const lookup = useQuery({ ...lookupQuery(isbn ?? ''), enabled: isbn !== null });
  const found = lookup.data?.book;
  const filler = useRef(fill);
  filler.current = fill;
  useEffect(() => {
    if (found) update((f) => filler.current(f, found));
  }, [found, update]);
  return lookup;
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
