/**
 * Photos of a book. Attached photos (`photos`) and pending upload slots (`photoSlots`) live on the
 * book item, with `photoVersion` bumped by every write that touches either: writes that recount
 * the photos are conditioned on the version they read, so two concurrent addPhoto calls can never
 * make a sixth. Each slot also has an expiry item (PHOTOSLOTS) for the sweeper.
 *
 * Access patterns:
 *  - reserve an upload slot (conditioned on photoVersion)    TransactWrite book + expiry item
 *  - attach a processed photo (conditioned on its slot)      UpdateItem BOOK#<id>
 *  - drop a slot (upload refused, or expired)                UpdateItem BOOK#<id>
 *  - replace photos and slots (conditioned on photoVersion)  UpdateItem BOOK#<id>
 *  - expired slots, oldest first                             Query PHOTOSLOTS, sk < now
 *  - forget a slot's expiry item                             DeleteItem PHOTOSLOTS / <sk>
 */

import { db, TABLE } from '#lib/table/client.ts';
import { DeleteCommand, QueryCommand, UpdateCommand } from '#lib/table/commands.ts';
import { isConditionFailed } from '#lib/table/conditions.ts';
import { tag, transactWrite } from '#lib/table/transact.ts';
import { updateIf } from '#lib/table/write-if.ts';
import type { PhotoSlot } from '#lib/values/photos.ts';
import { BookWriteRefused, getBook } from './books.ts';
import { bookKey, type ItemKey, PHOTO_SLOTS_PK, photoSlotExpiryKey } from './keys.ts';
import type { BookRecord, PhotoRecord } from './records.ts';

/** The book is the owner's, in status 0 or 5, and nobody changed its photos since `version`. */
const OWNED_EDITABLE_AT_VERSION = (version: number) =>
  [
    'attribute_exists(pk)',
    'ownerId = :owner',
    '#status IN (:s0, :s5)',
    version === 0 ? 'attribute_not_exists(photoVersion)' : 'photoVersion = :v',
  ].join(' AND ');

const versionValues = (ownerId: string, version: number) => ({
  ':owner': ownerId,
  ':s0': 0,
  ':s5': 5,
  ...(version === 0 ? {} : { ':v': version }),
});

const BUMP = 'photoVersion = if_not_exists(photoVersion, :zero) + :one';

/**
 * Stores `slots` (the live ones plus the new one) on the owner's book read at `book.photoVersion`,
 * and the new slot's expiry item, in one transaction. BookWriteRefused when anything changed.
 */
export async function reserveSlot(
  book: BookRecord,
  ownerId: string,
  slots: Record<string, PhotoSlot>,
  newSlot: { photoId: string; expiresAt: number },
): Promise<void> {
  const version = book.photoVersion ?? 0;
  const outcome = await transactWrite([
    tag('book', {
      Update: {
        TableName: TABLE,
        Key: bookKey(book.id),
        UpdateExpression: `SET photoSlots = :slots, ${BUMP}`,
        ConditionExpression: OWNED_EDITABLE_AT_VERSION(version),
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ...versionValues(ownerId, version),
          ':slots': slots,
          ':zero': 0,
          ':one': 1,
        },
      },
    }),
    tag('expiry', {
      Put: {
        TableName: TABLE,
        Item: {
          ...photoSlotExpiryKey(newSlot.expiresAt, book.id, newSlot.photoId),
          type: 'photoSlotExpiry',
          bookId: book.id,
          photoId: newSlot.photoId,
          expiresAt: newSlot.expiresAt,
        },
      },
    }),
  ]);
  if (!outcome.ok) throw new BookWriteRefused(await getBook(book.id));
}

/** Replaces the photos and slots of the owner's book read at `book.photoVersion`. BookWriteRefused otherwise. */
export async function replacePhotos(
  book: BookRecord,
  ownerId: string,
  photos: PhotoRecord[],
  slots: Record<string, PhotoSlot>,
): Promise<BookRecord> {
  const version = book.photoVersion ?? 0;
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: bookKey(book.id),
        UpdateExpression: `SET photos = :photos, photoSlots = :slots, ${BUMP}`,
        ConditionExpression: OWNED_EDITABLE_AT_VERSION(version),
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ...versionValues(ownerId, version),
          ':photos': photos,
          ':slots': slots,
          ':zero': 0,
          ':one': 1,
        },
      }),
    );
  } catch (err) {
    if (isConditionFailed(err)) throw new BookWriteRefused(await getBook(book.id));
    throw err;
  }
  return { ...book, photos, photoSlots: slots, photoVersion: version + 1 };
}

/**
 * Turns the pending slot `photoId` into an attached photo. False when the slot is not there
 * (already attached by an earlier delivery, removed, swept, or the book is gone): nothing changes.
 */
export async function attachPhoto(bookId: string, photoId: string): Promise<boolean> {
  return updateIf({
    TableName: TABLE,
    Key: bookKey(bookId),
    UpdateExpression: `REMOVE photoSlots.#id SET photos = list_append(if_not_exists(photos, :none), :photo), ${BUMP}`,
    ConditionExpression: 'attribute_exists(photoSlots.#id)',
    ExpressionAttributeNames: { '#id': photoId },
    ExpressionAttributeValues: { ':none': [], ':photo': [{ id: photoId }], ':zero': 0, ':one': 1 },
  });
}

/**
 * Removes the pending slot `photoId` (only the one expiring at `expiresAt`, when given). False when
 * it is not there.
 */
export async function dropSlot(bookId: string, photoId: string, expiresAt?: number): Promise<boolean> {
  return updateIf({
    TableName: TABLE,
    Key: bookKey(bookId),
    UpdateExpression: `REMOVE photoSlots.#id SET ${BUMP}`,
    ConditionExpression:
      expiresAt === undefined ? 'attribute_exists(photoSlots.#id)' : 'photoSlots.#id.expiresAt = :expiresAt',
    ExpressionAttributeNames: { '#id': photoId },
    ExpressionAttributeValues: {
      ':zero': 0,
      ':one': 1,
      ...(expiresAt === undefined ? {} : { ':expiresAt': expiresAt }),
    },
  });
}

export interface SlotExpiry {
  key: ItemKey;
  bookId: string;
  photoId: string;
  expiresAt: number;
}

/** Slot expiry items whose time has come (expiresAt <= nowSeconds), oldest first, at most `limit`. */
export async function expiredSlots(nowSeconds: number, limit: number): Promise<SlotExpiry[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk AND sk < :upper',
      ExpressionAttributeValues: {
        ':pk': PHOTO_SLOTS_PK,
        ':upper': String(nowSeconds + 1).padStart(10, '0'),
      },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((i) => ({
    key: { pk: String(i.pk), sk: String(i.sk) },
    bookId: String(i.bookId),
    photoId: String(i.photoId),
    expiresAt: Number(i.expiresAt),
  }));
}

/** Deletes one slot expiry item. */
export async function forgetSlotExpiry(key: ItemKey): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE, Key: key }));
}
