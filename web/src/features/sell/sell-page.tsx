/**
 * `/sell`: posts a book; a 400's field errors are shown under their fields. The price is required:
 * an empty price is a field error and nothing is posted (`Number('')` is 0, so posting it blindly
 * would list the book for free); a free book is an explicit choice ("Give it away for free").
 * The ISBN comes first, typed or scanned from the barcode (barcode-scan.tsx): a whole one is looked
 * up and fills the title, author and edition the seller left empty, with what copies sold for and
 * the cover (isbn-lookup.tsx), which is posted with the book as its picture until it has photos.
 * An empty search's "Sell yours" fills in what was searched (`/sell?name=|course=|ISBN=`, web/src/prefill.ts).
 */
import { type FormEvent, useEffect, useState } from 'react';
import { api, call } from '#web/api.ts';
import { CONDITIONS } from '#web/books.ts';
import { BarcodeScan } from '#web/features/sell/barcode-scan.tsx';
import { LookupCover, LookupNote, useIsbnLookup } from '#web/features/sell/isbn-lookup.tsx';
import { prefillFrom } from '#web/prefill.ts';
import { keys } from '#web/queries.ts';
import { Link, useLocation } from '#web/router.tsx';
import { Field, Form, StatusLine } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';

export const PRICE_REQUIRED = 'Enter a price in dollars, or tick “Give it away for free”.';

const BLANK = {
  ISBN: '',
  name: '',
  author: '',
  edition: '1',
  course: '',
  price: '',
  condition: 'good',
  comments: '',
};

export function SellPage() {
  const { form, bind, set, update } = useFields({ ...BLANK, ...prefillFrom(useLocation().query) });
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
  const [free, setFree] = useState(false);
  const [posted, setPosted] = useState<string | null>(null);
  const [priceError, setPriceError] = useState<string | undefined>(undefined);
  const { error, busy, submit } = useSubmit(
    async () => {
      const book = await call(
        api.POST('/api/books/postBook', {
          body: {
            name: form.name,
            author: form.author.trim() ? form.author : null,
            edition: Number(form.edition),
            course: form.course,
            price: free ? 0 : Number(form.price),
            condition: form.condition,
            comments: form.comments,
            ISBN: form.ISBN.trim() ? form.ISBN : null,
            coverUrl,
          },
        }),
      );
      setPosted(book.name);
      setFree(false);
      update(() => BLANK);
    },
    keys.listings,
    keys.books,
    keys.statistics,
  );
  const onSubmit = async (e?: FormEvent) => {
    e?.preventDefault();
    // A new attempt hides the last success line: it never stands beside a new error.
    setPosted(null);
    if (!free && form.price.trim() === '') {
      setPriceError(PRICE_REQUIRED);
      return false;
    }
    setPriceError(undefined);
    return submit();
  };
  const price = bind('price', error);
  return (
    <section>
      <h1>Sell a book</h1>
      {posted && (
        <StatusLine>
          “{posted}” is listed. See it in <Link href="/listings">my listings</Link>.
        </StatusLine>
      )}
      <Form onSubmit={onSubmit} noValidate error={error} busy={busy} button="List the book">
        <Field
          {...bind('ISBN', error)}
          label="ISBN (optional)"
          hint="Type the ISBN from the back of the book, or scan its barcode, and the rest fills itself in."
        />
        <BarcodeScan onIsbn={set('ISBN')} />
        <LookupNote lookup={lookup} />
        <LookupCover
          book={found}
          used={coverUrl !== null}
          onUse={(use) => setDeclinedCover(use ? null : (found?.coverUrl ?? null))}
        />
        <Field {...bind('name', error)} label="Title" required />
        <Field {...bind('author', error)} label="Author (optional)" />
        <Field {...bind('edition', error)} label="Edition" type="number" min={1} required />
        <Field {...bind('course', error)} label="Course (e.g. CSC 171)" required />
        {!free && (
          <Field
            {...price}
            error={priceError ?? price.error}
            label="Price in dollars"
            type="number"
            min={0}
            step="0.01"
            required
          />
        )}
        <div className="field check">
          <input
            id="sell-free"
            type="checkbox"
            name="free"
            checked={free}
            onChange={(e) => {
              setFree(e.target.checked);
              setPriceError(undefined);
            }}
          />
          <label htmlFor="sell-free">Give it away for free</label>
        </div>
        <Field {...bind('condition', error)} label="Condition" options={CONDITIONS} />
        <Field {...bind('comments', error)} label="Comments (optional)" multiline />
      </Form>
    </section>
  );
}
