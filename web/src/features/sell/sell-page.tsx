/**
 * `/sell`: posts a book; its fields, plain checks and body are My listings' editor's too
 * (web/src/ui/book-fields.tsx: the price is required, free is an explicit choice); a 400's field
 * errors are shown under their fields.
 * The ISBN comes first, typed or scanned from the barcode (barcode-scan.tsx): a whole one is looked
 * up and fills the title, author and edition the seller left empty, with what copies sold for and
 * the cover (isbn-lookup.tsx), which is posted with the book as its picture until it has photos.
 * An empty search's "Sell yours" fills in what was searched (`/sell?name=|course=|ISBN=`, web/src/prefill.ts).
 */
import { type FormEvent, useEffect, useState } from 'react';
import { api, call } from '#web/api.ts';
import { BarcodeScan } from '#web/features/sell/barcode-scan.tsx';
import { LookupCover, LookupNote, useIsbnLookup } from '#web/features/sell/isbn-lookup.tsx';
import { prefillFrom } from '#web/prefill.ts';
import { keys } from '#web/queries.ts';
import { Link, useLocation } from '#web/router.tsx';
import { BLANK_BOOK, BookFields, useBookForm } from '#web/ui/book-fields.tsx';
import { Form, StatusLine } from '#web/ui/form.tsx';
import { useSubmit } from '#web/ui/hooks.ts';

export function SellPage() {
  const book = useBookForm({ ...BLANK_BOOK, ...prefillFrom(useLocation().query) });
  const { form, set, update } = book;
  const lookup = useIsbnLookup(form.ISBN);
  const found = lookup.data?.book;
  useEffect(() => {
    if (!found) return;
    update((f) => ({
      ...f,
      name: f.name.trim() ? f.name : found.title.slice(0, 200),
      author:
        f.author.trim() || found.authors.length === 0 ? f.author : found.authors.join(', ').slice(0, 200),
      // the edition starts at 1: the looked-up one replaces that default, never a number typed
      edition: found.edition && (f.edition === '' || f.edition === '1') ? String(found.edition) : f.edition,
    }));
  }, [found, update]);
  // The looked-up cover is posted with the book (its picture until it has photos) unless declined.
  const [declinedCover, setDeclinedCover] = useState<string | null>(null);
  const coverUrl = found?.coverUrl && found.coverUrl !== declinedCover ? found.coverUrl : null;
  const [posted, setPosted] = useState<string | null>(null);
  const { error, busy, submit } = useSubmit(
    async () => {
      const posted = await call(api.POST('/api/books/postBook', { body: { ...book.body(), coverUrl } }));
      setPosted(posted.name);
      book.setFree(false);
      update(() => BLANK_BOOK);
    },
    keys.listings,
    keys.books,
    keys.statistics,
  );
  const onSubmit = async (e?: FormEvent) => {
    e?.preventDefault();
    // A new attempt hides the last success line: it never stands beside a new error.
    setPosted(null);
    if (!book.check()) return false;
    return submit();
  };
  return (
    <section>
      <h1>Sell a book</h1>
      {posted && (
        <StatusLine>
          “{posted}” is listed. See it in <Link href="/listings">my listings</Link>.
        </StatusLine>
      )}
      <Form onSubmit={onSubmit} noValidate error={error} busy={busy} button="List the book">
        <BookFields
          book={book}
          error={error}
          afterIsbn={
            <>
              <BarcodeScan onIsbn={set('ISBN')} />
              <LookupNote lookup={lookup} />
              <LookupCover
                book={found}
                used={coverUrl !== null}
                onUse={(use) => setDeclinedCover(use ? null : (found?.coverUrl ?? null))}
              />
            </>
          }
        />
      </Form>
    </section>
  );
}
