/**
 * Uploading a seller's photos of a book, shared by the Sell form (several at once, right after the
 * book is posted) and My listings' photo editor (one at a time): the checks the service makes too
 * (type, size, how many), addPhoto's presigned POST straight to the photo store, and the wait until
 * the service has checked and processed an upload (it appears on the book only then).
 */
import type { paths } from '#web/api.gen.ts';
import { ApiFailure, api, call } from '#web/api.ts';
import { bookQuery, queryClient } from '#web/queries.ts';

type ContentType = NonNullable<
  paths['/api/books/addPhoto']['post']['requestBody']
>['content']['application/json']['contentType'];

export const PHOTO_TYPES: ContentType[] = ['image/jpeg', 'image/png', 'image/webp'];
const MAX_BYTES = 5 * 1024 * 1024;
export const MAX_PHOTOS = 5;
/** How long an upload may take to be processed before the wait gives up. */
const PROCESSING_MS = 60_000;

/**
 * What is wrong with a file as a photo (its type or size), naming the file, or null when it may be
 * uploaded: the one check of the Sell form's picker and the listing's photo editor, made when the
 * file is picked (the service checks again).
 */
export function photoProblem(file: File): string | null {
  if (!PHOTO_TYPES.some((t) => t === file.type))
    return `${file.name} is not a photo: choose a JPEG, PNG or WebP image.`;
  if (file.size > MAX_BYTES) return `${file.name} is larger than 5 MB: choose a smaller photo.`;
  return null;
}

const refused = (message: string) =>
  new ApiFailure(400, { error: message, code: 'PHOTO_REFUSED' }, new Response());

/** Uploads one file through addPhoto's presigned POST; resolves to the new photo's id. */
export async function upload(bookId: string, file: File): Promise<string> {
  const problem = photoProblem(file);
  const contentType = PHOTO_TYPES.find((t) => t === file.type);
  if (problem || !contentType) throw refused(problem ?? `${file.name} is not a photo.`);
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
 * Waits until each uploaded photo of `ids` is checked (read again every second, which refreshes the
 * book's page in the cache): on the book, or refused by the service's check (not a real JPEG, PNG or
 * WebP image), which its owner's read shows as no longer pending. Gives up after a minute; resolves
 * to the ids that arrived.
 */
export async function waitForPhotos(bookId: string, ids: string[]): Promise<Set<string>> {
  const since = Date.now();
  for (;;) {
    const book = await queryClient.fetchQuery({ ...bookQuery(bookId), staleTime: 0 });
    const arrived = new Set(book.photos.filter((p) => ids.includes(p.id)).map((p) => p.id));
    // without the owner's `pendingPhotos` every id that has not arrived counts as pending
    const pending = ids.filter((id) => !arrived.has(id) && (book.pendingPhotos ?? ids).includes(id));
    if (pending.length === 0 || Date.now() - since > PROCESSING_MS) return arrived;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
