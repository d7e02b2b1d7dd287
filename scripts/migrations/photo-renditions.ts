/**
 * Migration to photos with a middle rendition: since 2026-11-28 the photo processor writes
 * `photos/<bookId>/<photoId>-800.webp` beside the 1600 px photo and the thumbnail, and the API gives
 * its URL (`mediumUrl`); this makes it for the photos processed before, from their stored 1600 px
 * photo (docs/photos.md). Maintenance only, run by scripts/backfill-photo-renditions.ts, and kept out
 * of `lib/` on purpose: it Scans (request code never does), on a plain client (the service's refuses
 * Scans), a page at a time. Safe to run again: a photo whose rendition exists is skipped.
 */
import type { BookRecord } from '#lib/db/records.ts';
import { renderMedium } from '#lib/photos/image.ts';
import { headObject, readObject, writeObject } from '#lib/photos/store.ts';
import { mediumKey, photoKey } from '#lib/values/photos.ts';
import { scanPages } from './scan.ts';

export interface RenditionsBackfill {
  /** middle renditions written */
  rendered: number;
  /** photos that had theirs already */
  present: number;
  /** photos whose stored 1600 px file is missing: nothing to render from (left as they are) */
  missing: number;
}

export async function backfillPhotoRenditions(
  pageSize = 1000,
  progress: (done: RenditionsBackfill) => void = () => undefined,
): Promise<RenditionsBackfill> {
  const done: RenditionsBackfill = { rendered: 0, present: 0, missing: 0 };
  await scanPages<Pick<BookRecord, 'id' | 'photos'>>(
    {
      FilterExpression: 'sk = :book AND size(photos) > :none',
      ExpressionAttributeValues: { ':book': 'BOOK', ':none': 0 },
      ProjectionExpression: 'id, photos',
    },
    pageSize,
    async (books) => {
      for (const book of books) {
        for (const { id } of book.photos ?? []) {
          if (await headObject(mediumKey(book.id, id))) {
            done.present++;
            continue;
          }
          const photo = await readObject(photoKey(book.id, id));
          if (!photo) {
            done.missing++;
            continue;
          }
          await writeObject(mediumKey(book.id, id), await renderMedium(photo), 'image/webp');
          done.rendered++;
        }
      }
    },
    () => progress(done),
  );
  return done;
}
