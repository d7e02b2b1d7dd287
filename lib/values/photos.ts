/**
 * Photo values: the accepted content types, a pending upload slot, and the object keys and public
 * URLs of the photo store (no S3 client here, so every handler that shows books can import it
 * cheaply).
 *  - incoming/<bookId>/<photoId>            what the browser uploaded (never shown; deleted after processing)
 *  - photos/<bookId>/<photoId>.webp         the processed photo (longest side 1600 px, no metadata)
 *  - photos/<bookId>/<photoId>-800.webp     its middle rendition (800 px: the phone's large photo)
 *  - photos/<bookId>/<photoId>-thumb.webp   its thumbnail (320 px)
 * Only `incoming/` triggers the processor, so writing under `photos/` never triggers it again.
 */
import { config } from '#lib/config.ts';

export const INCOMING_PREFIX = 'incoming/';
export const PHOTOS_PREFIX = 'photos/';

export const incomingKey = (bookId: string, photoId: string) => `${INCOMING_PREFIX}${bookId}/${photoId}`;
export const photoKey = (bookId: string, photoId: string) => `${PHOTOS_PREFIX}${bookId}/${photoId}.webp`;
export const mediumKey = (bookId: string, photoId: string) => `${PHOTOS_PREFIX}${bookId}/${photoId}-800.webp`;
export const thumbnailKey = (bookId: string, photoId: string) =>
  `${PHOTOS_PREFIX}${bookId}/${photoId}-thumb.webp`;
/** Every processed file of one photo: what removing it deletes. */
export const renditionKeys = (bookId: string, photoId: string) => [
  photoKey(bookId, photoId),
  mediumKey(bookId, photoId),
  thumbnailKey(bookId, photoId),
];

/** The book and photo of an incoming key, or undefined for any other key. */
export function parseIncomingKey(key: string): { bookId: string; photoId: string } | undefined {
  const m = /^incoming\/([0-9A-Za-z]{1,64})\/([0-9A-Za-z]{1,64})$/.exec(key);
  return m ? { bookId: m[1] as string, photoId: m[2] as string } : undefined;
}

/** The plain public URL of an object (CloudFront deployed, the emulator locally); never signed. */
export const publicUrl = (key: string): string => `${config.PHOTOS_PUBLIC_URL.replace(/\/$/, '')}/${key}`;

/** A book's photos as clients see them. */
export const apiPhotos = (bookId: string, photos: ReadonlyArray<{ id: string }> | undefined) =>
  (photos ?? []).map((p) => ({
    id: p.id,
    url: publicUrl(photoKey(bookId, p.id)),
    mediumUrl: publicUrl(mediumKey(bookId, p.id)),
    thumbnailUrl: publicUrl(thumbnailKey(bookId, p.id)),
  }));

/**
 * A book's picture as clients see it: its photos, and the cover its ISBN lookup found when there is
 * one (every answer that shows a book: `toApiBook`, getOrder's books).
 */
export const bookPictures = (
  bookId: string,
  book: { photos?: ReadonlyArray<{ id: string }>; coverUrl?: string | null } | undefined,
): { photos: ReturnType<typeof apiPhotos>; coverUrl?: string } => ({
  photos: apiPhotos(bookId, book?.photos),
  ...(book?.coverUrl ? { coverUrl: book.coverUrl } : {}),
});

/** The declared content types and the format name the image decoder reports for each. */
export const PHOTO_TYPES = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
} as const;
export type PhotoContentType = keyof typeof PHOTO_TYPES;
export const PHOTO_CONTENT_TYPES = Object.keys(PHOTO_TYPES) as [PhotoContentType, ...PhotoContentType[]];

/** A pending upload slot on a book: what type it may carry and when its POST expires (epoch s). */
export interface PhotoSlot {
  contentType: PhotoContentType;
  expiresAt: number;
}
