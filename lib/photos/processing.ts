/**
 * Processing one upload (the S3-triggered function). Kept apart from lib/photos/photos.ts so only
 * the processor's bundle carries sharp.
 */
import { getBook } from '#lib/db/books.ts';
import { attachPhoto, dropSlot } from '#lib/db/photos.ts';
import { logger } from '#lib/logger.ts';
import { mediumKey, parseIncomingKey, photoKey, renditionKeys, thumbnailKey } from '#lib/values/photos.ts';
import { decodedFormat, renderPhoto } from './image.ts';
import { type Refusal, refusalOfBytes, refusalOfObject } from './rules.ts';
import { deleteObjects, headObject, readObject, writeObject } from './store.ts';

/** Writes a rendered photo's files under `photos/` (the processor's, and the benchmark's photos). */
export async function storeRendered(
  bookId: string,
  photoId: string,
  rendered: Awaited<ReturnType<typeof renderPhoto>>,
): Promise<void> {
  await writeObject(photoKey(bookId, photoId), rendered.photo, 'image/webp');
  await writeObject(mediumKey(bookId, photoId), rendered.medium, 'image/webp');
  await writeObject(thumbnailKey(bookId, photoId), rendered.thumbnail, 'image/webp');
}

export type ProcessOutcome = 'attached' | 'unchanged' | Refusal | 'not-a-slot';

/**
 * Processes one uploaded object (S3 ObjectCreated): refuses an oversized, mistyped or undecodable
 * file (deleted, its slot freed, never attached); otherwise writes the upright, metadata-free
 * photo, its middle rendition and thumbnail and attaches them to the book with a conditional write. A redelivered
 * event finds no slot and changes nothing.
 */
export async function processUpload(key: string): Promise<ProcessOutcome> {
  const ids = parseIncomingKey(key);
  if (!ids) return 'not-a-slot';
  const { bookId, photoId } = ids;
  const book = await getBook(bookId);
  const slot = book?.photoSlots?.[photoId];
  if (!book || !slot) {
    // A stray upload, or a redelivery after the photo was attached (or refused): never attach it.
    await deleteObjects([key]);
    return book?.photos?.some((p) => p.id === photoId) ? 'unchanged' : 'not-a-slot';
  }
  const head = await headObject(key);
  if (!head) return 'unchanged';
  const declared = slot.contentType;
  let refusal = refusalOfObject(head, declared);
  let bytes: Buffer | undefined;
  if (refusal === null) {
    bytes = await readObject(key);
    refusal = !bytes
      ? 'not-an-image'
      : (refusalOfObject({ ...head, size: bytes.length }, declared) ??
        refusalOfBytes(declared, await decodedFormat(bytes)));
  }
  if (refusal !== null || !bytes) {
    logger.warn('photo upload refused', { bookId, photoId, refusal });
    await deleteObjects([key]);
    await dropSlot(bookId, photoId);
    return refusal ?? 'not-an-image';
  }
  const rendered = await renderPhoto(bytes).catch(() => undefined);
  if (!rendered) {
    await deleteObjects([key]);
    await dropSlot(bookId, photoId);
    return 'not-an-image';
  }
  await storeRendered(bookId, photoId, rendered);
  const attached = await attachPhoto(bookId, photoId);
  if (!attached) {
    // Removed, swept or deleted meanwhile (or attached by a concurrent delivery).
    const now = await getBook(bookId);
    if (!now?.photos?.some((p) => p.id === photoId)) {
      await deleteObjects(renditionKeys(bookId, photoId));
    }
  }
  await deleteObjects([key]);
  return attached ? 'attached' : 'unchanged';
}
