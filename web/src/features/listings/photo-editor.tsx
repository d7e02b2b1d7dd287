/**
 * The seller's photos of a book: upload (addPhoto's presigned POST straight to the photo store)
 * and removal. An upload appears only once the service has checked and processed it, so the
 * editor waits for it to show on the book.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { paths } from '#web/api.gen.ts';
import { ApiFailure, api, call } from '#web/api.ts';
import { keys } from '#web/queries.ts';
import { ErrorNote } from '#web/ui/form.tsx';
import { useAction } from '#web/ui/hooks.ts';
import type { Photo } from '#web/ui/photos.tsx';

type ContentType = NonNullable<
  paths['/api/books/addPhoto']['post']['requestBody']
>['content']['application/json']['contentType'];

const TYPES: ContentType[] = ['image/jpeg', 'image/png', 'image/webp'];
const MAX_BYTES = 5 * 1024 * 1024;
const MAX_PHOTOS = 5;
/** How long an upload may take to be processed before the editor gives up waiting. */
const PROCESSING_MS = 60_000;

const refused = (message: string) =>
  new ApiFailure(400, { error: message, code: 'PHOTO_REFUSED' }, new Response());

/** Uploads one file through addPhoto's presigned POST; resolves to the new photo's id. */
async function upload(bookId: string, file: File): Promise<string> {
  const contentType = TYPES.find((t) => t === file.type);
  if (!contentType) throw refused('Choose a JPEG, PNG or WebP image.');
  if (file.size > MAX_BYTES) throw refused('The photo is larger than 5 MB.');
  const added = await call(api.POST('/api/books/addPhoto', { body: { bookId, contentType } }));
  const form = new FormData();
  for (const [k, v] of Object.entries(added.upload.fields)) form.append(k, v);
  form.append('file', file);
  let res: Response;
  try {
    res = await fetch(added.upload.url, { method: 'POST', body: form });
  } catch {
    throw refused('The photo store cannot be reached. Try again.');
  }
  if (!res.ok) throw refused(`The photo store refused the file (${res.status}).`);
  return added.photoId;
}

/**
 * A seller's photos of one book: each with a remove button, and a file field to add one (up to
 * five). While an upload is processed, the seller's books are read again every second until the
 * photo is on the book (the book lists and pages are refreshed with them).
 */
export function PhotoEditor({ book }: { book: { id: string; name: string; photos: Photo[] } }) {
  const inputId = useId();
  const client = useQueryClient();
  const act = useAction(keys.listings, keys.books);
  const [pending, setPending] = useState<{ id: string; since: number } | null>(null);
  const [gaveUp, setGaveUp] = useState(false);
  const arrived = pending !== null && book.photos.some((p) => p.id === pending.id);
  useEffect(() => {
    if (!pending || arrived) return;
    const timer = setInterval(() => {
      if (Date.now() - pending.since > PROCESSING_MS) {
        setPending(null);
        setGaveUp(true);
      } else {
        client.invalidateQueries({ queryKey: keys.listings }, { cancelRefetch: false });
        client.invalidateQueries({ queryKey: keys.books });
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [pending, arrived, client]);
  const add = (file: File | undefined) => {
    if (!file) return;
    setGaveUp(false);
    act.run(async () => setPending({ id: await upload(book.id, file), since: Date.now() }));
  };
  const remove = (photoId: string) =>
    act.run(() => call(api.POST('/api/books/removePhoto', { body: { bookId: book.id, photoId } })));
  const processing = pending !== null && !arrived;
  return (
    <div className="photos">
      <ul className="gallery">
        {book.photos.map((p, i) => (
          <li key={p.id}>
            <img src={p.thumbnailUrl} alt={`${book.name}, view ${i + 1}`} width={96} height={96} />
            <button type="button" onClick={() => remove(p.id)} disabled={act.busy}>
              Remove photo {i + 1} of {book.name}
            </button>
          </li>
        ))}
      </ul>
      {book.photos.length < MAX_PHOTOS && (
        <div className="field">
          <label htmlFor={inputId}>Add a photo of {book.name}</label>
          <small>JPEG, PNG or WebP, up to 5 MB; {MAX_PHOTOS - book.photos.length} more allowed.</small>
          <input
            id={inputId}
            type="file"
            accept={TYPES.join(',')}
            disabled={act.busy || processing}
            onChange={(e) => {
              add(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </div>
      )}
      {processing && <p role="status">Checking the photo…</p>}
      {arrived && <p role="status">The photo is added.</p>}
      {gaveUp && (
        <p role="alert" className="error">
          The photo did not appear: it must be a real JPEG, PNG or WebP image.
        </p>
      )}
      <ErrorNote error={act.error} />
    </div>
  );
}
