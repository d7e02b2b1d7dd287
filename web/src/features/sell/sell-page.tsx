/**
 * `/sell`: posts a book; its fields, plain checks and body are My listings' editor's too
 * (web/src/ui/book-fields.tsx: the price is required, free is an explicit choice); a 400's field
 * errors are shown under their fields.
 * The ISBN comes first, typed or scanned from the barcode (barcode-scan.tsx): a whole one is looked
 * up and fills the title, author and edition the seller left empty, with what copies sold for and
 * the cover (web/src/ui/isbn-lookup.tsx, lookup-cover.tsx), which is posted with the book as its picture until it has photos.
 * An empty search's "Sell yours" fills in what was searched (`/sell?name=|course=|ISBN=`, web/src/prefill.ts).
 * Photos are chosen in the same form (photo-picker.tsx): "List the book" posts the book, then
 * uploads them one by one and waits until they are processed, saying how far it is in a status
 * line; a photo that fails does not undo the book: the success line names it and links to My
 * listings, where it can be added again (web/src/ui/photo-upload.ts is shared with its editor).
 */
import { type FormEvent, useEffect, useState } from 'react';
import { api, call } from '#web/api.ts';
import { readDraft, writeDraft } from '#web/drafts.ts';
import { BarcodeScan } from '#web/features/sell/barcode-scan.tsx';
import { LookupCover } from '#web/features/sell/lookup-cover.tsx';
import { PhotoPicker } from '#web/features/sell/photo-picker.tsx';
import { prefillFrom } from '#web/prefill.ts';
import { keys } from '#web/queries.ts';
import { Link, navigate, useLocation } from '#web/router.tsx';
import { BLANK_BOOK, BookFields, type BookForm, useBookForm } from '#web/ui/book-fields.tsx';
import { Form, StatusLine } from '#web/ui/form.tsx';
import { useSubmit } from '#web/ui/hooks.ts';
import { LookupNote, useIsbnLookup } from '#web/ui/isbn-lookup.tsx';
import { upload, waitForPhotos } from '#web/ui/photo-upload.ts';
import { ShareBook } from '#web/ui/share-book.tsx';
import { count } from '#web/ui/words.ts';

/** A posted book, with the names of the chosen photos that could not be added to it. */
type Posted = { id: string; name: string; photos: number; failed: string[] };

/** The success line: the book is listed; any photo that failed is named, with where to add it again. */
function PostedLine({ posted }: { posted: Posted }) {
  const added = posted.photos - posted.failed.length;
  return (
    <StatusLine>
      “{posted.name}” is listed{added > 0 && ` with ${count(added, 'photo')}`}. See{' '}
      <Link href={`/books/${encodeURIComponent(posted.id)}`}>its page</Link> or{' '}
      <Link href="/listings">my listings</Link>.
      {posted.failed.length > 0 && (
        <>
          {' '}
          <strong>
            {posted.failed.length === 1 ? 'This photo was' : 'These photos were'} not added:{' '}
            {posted.failed.join(', ')}.
          </strong>{' '}
          Add {posted.failed.length === 1 ? 'it' : 'them'} again in <Link href="/listings">my listings</Link>.
        </>
      )}
    </StatusLine>
  );
}

/**
 * Uploads `files` to the book one by one, telling `progress` how far it is, then waits until they
 * are processed; resolves to the names of the files that are not on the book.
 */
async function addPhotos(bookId: string, files: File[], progress: (line: string) => void) {
  const failed: string[] = [];
  const sent: Array<{ id: string; name: string }> = [];
  for (const [i, file] of files.entries()) {
    progress(`Uploading photo ${i + 1} of ${files.length}…`);
    try {
      sent.push({ id: await upload(bookId, file), name: file.name });
    } catch {
      failed.push(file.name);
    }
  }
  if (sent.length > 0) {
    progress(`Checking the photo${sent.length === 1 ? '' : 's'}…`);
    // a book that cannot be read now leaves its photos unconfirmed: named as failed, never thrown
    const arrived = await waitForPhotos(
      bookId,
      sent.map((s) => s.id),
    ).catch(() => new Set<string>());
    failed.push(...sent.filter((s) => !arrived.has(s.id)).map((s) => s.name));
  }
  return failed;
}

/** The Sell form's kept draft (drafts.ts): its text fields and the free choice. */
type SellDraft = { form: BookForm; free: boolean };
const parseDraft = (raw: unknown): SellDraft | null => {
  if (typeof raw !== 'object' || raw === null) return null;
  const { form, free } = raw as { form?: Record<string, unknown>; free?: unknown };
  if (typeof form !== 'object' || form === null || typeof free !== 'boolean') return null;
  const kept = Object.fromEntries(
    Object.keys(BLANK_BOOK).map((k) => [
      k,
      typeof form[k] === 'string' ? form[k] : BLANK_BOOK[k as keyof BookForm],
    ]),
  ) as BookForm;
  return { form: kept, free };
};
const isBlank = (d: SellDraft) =>
  !d.free && (Object.keys(BLANK_BOOK) as (keyof BookForm)[]).every((k) => d.form[k] === BLANK_BOOK[k]);

export function SellPage() {
  // An empty search's "Sell yours" starts a new book from what was searched; else the form starts
  // from what this student typed and did not send (a reload or another page in between).
  const prefill = prefillFrom(useLocation().query);
  const prefilled = Object.values(prefill).some(Boolean);
  const [restored, setRestored] = useState(() => (prefilled ? null : readDraft('sell', parseDraft)));
  // a new book from a search replaces the kept draft: read before it does, it is offered back once
  const [earlier, setEarlier] = useState(() => (prefilled ? readDraft('sell', parseDraft) : null));
  const book = useBookForm(restored?.form ?? { ...BLANK_BOOK, ...prefill }, restored?.free ?? false);
  const { form, set, update } = book;
  // every change is kept until the book is listed (the form is then blank: the draft goes)
  useEffect(() => {
    const draft = { form, free: book.free };
    writeDraft('sell', isBlank(draft) ? null : draft);
  }, [form, book.free]);
  const startOver = () => {
    book.setFree(false);
    update(() => BLANK_BOOK);
    setRestored(null);
  };
  // once filled in, the form is this student's draft: a reload restores it, not the search again
  useEffect(() => {
    if (prefilled) navigate('/sell', { replace: true });
  }, [prefilled]);
  const goBack = (draft: SellDraft) => {
    book.setFree(draft.free);
    update(() => draft.form);
    setRestored(draft);
    setEarlier(null);
  };
  const lookup = useIsbnLookup(form.ISBN, update, (f, found) => ({
    ...f,
    name: f.name.trim() ? f.name : found.title.slice(0, 200),
    author: f.author.trim() || found.authors.length === 0 ? f.author : found.authors.join(', ').slice(0, 200),
    // the edition starts at 1: the looked-up one replaces that default, never a number typed
    edition: found.edition && (f.edition === '' || f.edition === '1') ? String(found.edition) : f.edition,
  }));
  const found = lookup.data?.book;
  // The looked-up cover is posted with the book (its picture until it has photos) unless declined.
  const [declinedCover, setDeclinedCover] = useState<string | null>(null);
  const coverUrl = found?.coverUrl && found.coverUrl !== declinedCover ? found.coverUrl : null;
  const [photos, setPhotos] = useState<File[]>([]);
  const [progress, setProgress] = useState<string | null>(null);
  const [posted, setPosted] = useState<Posted | null>(null);
  const { error, busy, submit } = useSubmit(
    async () => {
      const listed = await call(api.POST('/api/books/postBook', { body: { ...book.body(), coverUrl } }));
      // The book is listed: from here nothing undoes it, a photo that fails is only reported.
      book.setFree(false);
      update(() => BLANK_BOOK);
      setRestored(null);
      setEarlier(null);
      const failed = await addPhotos(listed.id, photos, setProgress).finally(() => setProgress(null));
      setPhotos([]);
      setPosted({ id: listed.id, name: listed.name, photos: photos.length, failed });
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
        <>
          <PostedLine posted={posted} />
          {/* the moment a seller wants to tell their class */}
          <ShareBook id={posted.id} name={posted.name} />
        </>
      )}
      {earlier && !restored && !posted && (
        <p className="muted">
          You had started another book{earlier.form.name.trim() ? `, “${earlier.form.name.trim()}”` : ''}.{' '}
          <button type="button" className="secondary small" onClick={() => goBack(earlier)}>
            Go back to it
          </button>
        </p>
      )}
      {restored && !posted && (
        <p className="muted">
          The form has what you typed last time (photos are chosen again).{' '}
          <button type="button" className="secondary small" onClick={startOver}>
            Start over
          </button>
        </p>
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
              {/* photos first, as marketplaces ask: right after the ISBN that finds the rest */}
              <PhotoPicker files={photos} onChange={setPhotos} disabled={busy} />
            </>
          }
        />
      </Form>
      {progress && <p role="status">{progress}</p>}
    </section>
  );
}
