/**
 * The Sell form's looked-up cover (the lookup itself is web/src/ui/isbn-lookup.tsx, shared with the
 * request form).
 */
import { useState } from 'react';
import { COVER_ORIGIN } from '#web/csp.ts';
import type { Lookup } from '#web/ui/isbn-lookup.tsx';

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
