/**
 * A book removed for good takes its files with it: on the REMOVE of a book item the stream
 * consumer deletes everything under its prefixes (photos, thumbnails, uploads). Keeping this out
 * of deleteBook keeps the S3 client out of every listing handler's bundle; a redelivered record
 * finds nothing left to delete. An upload that lands afterwards finds no book and is deleted by
 * the processor.
 */
import { isBookKey } from '#lib/db/keys.ts';
import type { ChangeProcessor } from '#lib/streams/types.ts';
import { deleteBookObjects } from './store.ts';

export const bookPhotosCleanupProcessor: ChangeProcessor = {
  name: 'bookPhotosCleanup',
  wants: (c) => c.eventName === 'REMOVE' && isBookKey(c.keys),
  apply: async (c) => {
    const bookId = String(c.oldImage?.id ?? String(c.keys.pk).slice('BOOK#'.length));
    await deleteBookObjects(bookId);
  },
};
