/**
 * Photos of books: reserving an upload slot (addPhoto), removing a photo, processing an upload,
 * sweeping slots whose upload never came, and deleting everything of a book removed for good.
 */
import { ulid } from 'ulid';
import { type Book, toApiBook } from '#lib/books/schemas.ts';
import { BookWriteRefused, getBook } from '#lib/db/books.ts';
import { dropSlot, expiredSlots, forgetSlotExpiry, replacePhotos, reserveSlot } from '#lib/db/photos.ts';
import { type BookRecord, BookStatus } from '#lib/db/records.ts';
import { Conflict, NotFound } from '#lib/errors.ts';
import type { PhotoContentType } from '#lib/values/photos.ts';
import { incomingKey } from '#lib/values/photos.ts';
import { hasRoomForPhoto, liveSlots, SLOT_TTL_SECONDS } from './rules.ts';
import { deleteObjects, presignUpload } from './store.ts';

const notFound = () => new NotFound('No such book.', 'BOOK_NOT_FOUND');
const tooMany = () => new Conflict('A book has at most 5 photos.', undefined, 'PHOTO_LIMIT');
const wrongStatus = (status: number) =>
  new Conflict(`The photos of a book in status ${status} cannot be changed.`, undefined, 'INVALID_STATUS');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The caller's own book in status 0 or 5, or 404 (also for another user's book) / 409. */
async function editableBook(userId: string, bookId: string): Promise<BookRecord> {
  const book = await getBook(bookId);
  if (!book || book.ownerId !== userId) throw notFound();
  if (book.status !== BookStatus.Listed && book.status !== BookStatus.Unlisted)
    throw wrongStatus(book.status);
  return book;
}

/** How often a write that lost a race re-reads the book and tries again. */
const ATTEMPTS = 5;

export interface AddedPhoto {
  photoId: string;
  upload: { url: string; fields: Record<string, string> };
}

/**
 * Reserves an upload slot on the caller's book (409 when it has 5 photos and live slots) and
 * answers the presigned POST for it. Expired slots are dropped in the same conditional write.
 */
export async function addPhoto(
  userId: string,
  bookId: string,
  contentType: PhotoContentType,
): Promise<AddedPhoto> {
  const photoId = ulid();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const book = await editableBook(userId, bookId);
    const now = nowSeconds();
    const live = liveSlots(book.photoSlots, now);
    if (!hasRoomForPhoto(book.photos?.length ?? 0, live)) throw tooMany();
    const expiresAt = now + SLOT_TTL_SECONDS;
    try {
      await reserveSlot(
        book,
        userId,
        { ...live, [photoId]: { contentType, expiresAt } },
        { photoId, expiresAt },
      );
    } catch (err) {
      if (err instanceof BookWriteRefused) continue; // someone else changed the photos: count again
      throw err;
    }
    const post = await presignUpload(incomingKey(bookId, photoId), contentType);
    return { photoId, upload: { url: post.url, fields: post.fields } };
  }
  throw new Conflict('The book changed while adding a photo; try again.', undefined, 'PHOTO_LIMIT');
}

/** Removes a photo (or a pending slot) of the caller's book, and its files. */
export async function removePhoto(userId: string, bookId: string, photoId: string): Promise<Book> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const book = await editableBook(userId, bookId);
    const photos = book.photos ?? [];
    const slots = { ...(book.photoSlots ?? {}) };
    if (!photos.some((p) => p.id === photoId) && !slots[photoId]) {
      throw new NotFound('No such photo.', 'PHOTO_NOT_FOUND');
    }
    delete slots[photoId];
    let next: BookRecord;
    try {
      next = await replacePhotos(
        book,
        userId,
        photos.filter((p) => p.id !== photoId),
        slots,
      );
    } catch (err) {
      if (err instanceof BookWriteRefused) continue;
      throw err;
    }
    // its files go in the stream consumer (lib/photos/cleanup.ts): no S3 client on this path
    return toApiBook(next);
  }
  throw new Conflict('The book changed while removing a photo; try again.', undefined, 'CONFLICT');
}

/**
 * Frees the slots whose POST expired without an upload being attached: drops the slot from its
 * book (if still there at that expiry), deletes any upload left under incoming/, and forgets the
 * expiry item. Returns how many expiry items were handled.
 */
export async function sweepExpiredSlots(options: { now?: Date; limit?: number } = {}): Promise<number> {
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const due = await expiredSlots(now, options.limit ?? 100);
  for (const slot of due) {
    await dropSlot(slot.bookId, slot.photoId, slot.expiresAt);
    const book = await getBook(slot.bookId);
    if (!book?.photos?.some((p) => p.id === slot.photoId)) {
      await deleteObjects([incomingKey(slot.bookId, slot.photoId)]);
    }
    await forgetSlotExpiry(slot.key);
  }
  return due.length;
}
