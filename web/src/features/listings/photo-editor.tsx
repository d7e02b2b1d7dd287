/**
 * The seller's pictures of a book on My listings: photos uploaded and removed, and the cover an ISBN
 * lookup found taken off. An upload appears only once the service has checked and processed it, so
 * the editor waits for it to show on the book (web/src/ui/photo-upload.ts, shared with the Sell form).
 */
import { useId, useState } from 'react';
import type { paths } from '#web/api.gen.ts';
import { api, call } from '#web/api.ts';
import { keys } from '#web/queries.ts';
import { ActionButton, ErrorNote, StatusLine } from '#web/ui/form.tsx';
import { useAction } from '#web/ui/hooks.ts';
import { Hidden } from '#web/ui/layout.tsx';
import { MAX_PHOTOS, PHOTO_TYPES, photoProblem, upload, waitForPhotos } from '#web/ui/photo-upload.ts';
import type { Photo } from '#web/ui/photos.tsx';

type UpdateBookBody = paths['/api/books/updateBook']['post']['requestBody']['content']['application/json'];

/**
 * A seller's photos of one book: each with a remove button, and a file field to add one (up to
 * five). While an upload is processed, the book is read again every second until the photo is on
 * it or the check refused it (waitForPhotos); then the book lists and pages are refreshed.
 */
export function PhotoEditor({
  book,
}: {
  book: { id: string; name: string; photos: Photo[]; coverUrl?: string | undefined };
}) {
  const inputId = useId();
  const act = useAction(keys.listings, keys.books);
  const [state, setState] = useState<'idle' | 'checking' | 'added' | 'gave-up'>('idle');
  // a file refused when picked (not a photo, too large): said at once, nothing is asked of the service
  const [refused, setRefused] = useState<string | null>(null);
  const add = (file: File | undefined) => {
    if (!file) return;
    setState('idle');
    const problem = photoProblem(file);
    setRefused(problem);
    if (problem) return;
    act.run(async () => {
      const id = await upload(book.id, file);
      setState('checking');
      setState((await waitForPhotos(book.id, [id])).has(id) ? 'added' : 'gave-up');
    });
  };
  const noCover: UpdateBookBody = { bookId: book.id, coverUrl: null };
  // (openapi-fetch's body type reads a property that can only be null as undefined: the body is
  // checked against the generated type above, then handed over without that property's type)
  const body: Omit<UpdateBookBody, 'coverUrl'> = noCover;
  const processing = state === 'checking';
  return (
    <div className="photos">
      <ul className="gallery">
        {book.photos.map((p, i) => (
          <li key={p.id}>
            <img src={p.thumbnailUrl} alt={`${book.name}, view ${i + 1}`} width={96} height={96} />
            {/* a removed photo is gone: it asks first, and is no filled button beside Edit */}
            <ActionButton
              act={act}
              action={() =>
                call(api.POST('/api/books/removePhoto', { body: { bookId: book.id, photoId: p.id } }))
              }
              confirm={`Remove photo ${i + 1} of “${book.name}”? Buyers no longer see it; to show it again, add it again.`}
              className="secondary small"
              disabled={act.busy}
            >
              Remove photo {i + 1}
              <Hidden> of {book.name}</Hidden>
            </ActionButton>
          </li>
        ))}
      </ul>
      {book.coverUrl && (
        <p>
          {book.photos.length === 0 ? 'Shown with the cover Open Library has for its ISBN. ' : ''}
          <ActionButton
            act={act}
            action={() => call(api.POST('/api/books/updateBook', { body }))}
            confirm={`Take the Open Library cover off “${book.name}”? The book then shows a plain cover with its title until you add a photo.`}
            className="secondary small"
            disabled={act.busy}
          >
            Take the looked-up cover off<Hidden> {book.name}</Hidden>
          </ActionButton>
        </p>
      )}
      {book.photos.length < MAX_PHOTOS && (
        <div className="field">
          <label htmlFor={inputId}>
            Add a photo<Hidden> of {book.name}</Hidden>
          </label>
          <small>JPEG, PNG or WebP, up to 5 MB; {MAX_PHOTOS - book.photos.length} more allowed.</small>
          <input
            id={inputId}
            type="file"
            accept={PHOTO_TYPES.join(',')}
            disabled={act.busy}
            onChange={(e) => {
              add(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </div>
      )}
      {processing && <p role="status">Checking the photo…</p>}
      {state === 'added' && <StatusLine>The photo is added.</StatusLine>}
      {state === 'gave-up' && (
        <p role="alert" className="error">
          The photo did not appear: it must be a real JPEG, PNG or WebP image.
        </p>
      )}
      {refused ? (
        <p role="alert" className="error">
          {refused}
        </p>
      ) : (
        <ErrorNote error={act.error} />
      )}
    </div>
  );
}
