/**
 * A book's files follow its item, in the stream consumer (so no listing or photo-removing handler
 * carries the S3 client, and a failed delete is retried with the record, never forgotten):
 *  - a book removed for good takes everything under its prefixes (photos, thumbnails, uploads);
 *  - a photo or pending upload that leaves a book's item (removePhoto, a refused or expired upload)
 *    takes its files: the upload, the photo, its middle rendition and its thumbnail. A slot that
 *    becomes a photo keeps its id, so processing an upload deletes nothing.
 * A redelivered record finds nothing left to delete. An upload that lands after its slot is gone
 * finds no slot and is deleted by the photo processor.
 */
import { isBookKey } from '#lib/db/keys.ts';
import type { ChangeProcessor, Item, StreamChange } from '#lib/streams/types.ts';
import { incomingKey, renditionKeys } from '#lib/values/photos.ts';
import { deleteBookObjects, deleteObjects } from './store.ts';

/** The ids of a book image's photos and pending uploads. */
function photoIdsOf(image: Item | undefined): Set<string> {
  const photos = (image?.photos as { id?: unknown }[] | undefined) ?? [];
  const slots = (image?.photoSlots as Record<string, unknown> | undefined) ?? {};
  return new Set([...photos.map((p) => String(p.id)), ...Object.keys(slots)]);
}

/** The photo ids a change of a book item took away. */
export function removedPhotoIds(c: StreamChange): string[] {
  const after = photoIdsOf(c.newImage);
  return [...photoIdsOf(c.oldImage)].filter((id) => !after.has(id));
}

export const bookPhotosCleanupProcessor: ChangeProcessor = {
  name: 'bookPhotosCleanup',
  wants: (c) =>
    isBookKey(c.keys) &&
    (c.eventName === 'REMOVE' || (c.eventName === 'MODIFY' && removedPhotoIds(c).length > 0)),
  apply: async (c) => {
    const bookId = String(c.oldImage?.id ?? String(c.keys.pk).slice('BOOK#'.length));
    if (c.eventName === 'REMOVE') {
      await deleteBookObjects(bookId);
      return;
    }
    await deleteObjects(
      removedPhotoIds(c).flatMap((id) => [incomingKey(bookId, id), ...renditionKeys(bookId, id)]),
    );
  },
};
