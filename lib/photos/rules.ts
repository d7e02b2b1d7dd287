/**
 * The rules of book photos, without I/O: how many, how big, which types, how long an upload slot
 * lives, and the conditions of the presigned POST that the browser uploads with.
 */
import { PHOTO_TYPES, type PhotoContentType, type PhotoSlot } from '#lib/values/photos.ts';

/** At most this many photos a book, pending upload slots included. */
export const MAX_PHOTOS = 5;
/** The largest upload accepted (5 MB). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** How long a presigned POST (and so a pending slot) lives: 15 minutes. */
export const SLOT_TTL_SECONDS = 15 * 60;
/**
 * Longest side of a processed photo, of its middle rendition and of its thumbnail. The middle one
 * is what a phone's book page shows large (a 20rem square at 2-3 device pixels per CSS pixel), so
 * it is sharp there without the 1600 px file.
 */
export const PHOTO_MAX_SIDE = 1600;
export const MEDIUM_MAX_SIDE = 800;
export const THUMB_MAX_SIDE = 320;

/** The slots whose POST has not expired at `nowSeconds`. */
export function liveSlots(
  slots: Record<string, PhotoSlot> | undefined,
  nowSeconds: number,
): Record<string, PhotoSlot> {
  return Object.fromEntries(Object.entries(slots ?? {}).filter(([, s]) => s.expiresAt > nowSeconds));
}

/** Whether a book with these photos and live slots has room for one more. */
export const hasRoomForPhoto = (photoCount: number, live: Record<string, PhotoSlot>): boolean =>
  photoCount + Object.keys(live).length < MAX_PHOTOS;

/**
 * The policy conditions of the presigned POST: the exact key, the exact content type and 1 byte
 * to 5 MB. (AWS enforces them; the local emulator does not, so the processor checks again.)
 */
export function uploadConditions(
  key: string,
  contentType: PhotoContentType,
): Array<Record<string, string> | [string, string, string] | [string, number, number]> {
  return [{ key }, ['eq', '$Content-Type', contentType], ['content-length-range', 1, MAX_UPLOAD_BYTES]];
}

export type Refusal = 'too-large' | 'wrong-type' | 'not-an-image';

/** Why an uploaded object must not be attached, from what S3 says of it; null when it may be read. */
export function refusalOfObject(
  object: { size: number; contentType: string | undefined },
  declared: PhotoContentType,
): Refusal | null {
  if (object.size > MAX_UPLOAD_BYTES) return 'too-large';
  if (object.size < 1) return 'not-an-image';
  if (object.contentType !== declared) return 'wrong-type';
  return null;
}

/** Why its bytes must not be attached, from the format the decoder found (undefined: none). */
export function refusalOfBytes(
  declared: PhotoContentType,
  decodedFormat: string | undefined,
): Refusal | null {
  if (decodedFormat === undefined) return 'not-an-image';
  if (decodedFormat !== PHOTO_TYPES[declared]) return 'wrong-type';
  return null;
}
