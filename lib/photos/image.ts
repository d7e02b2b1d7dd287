/**
 * Image decoding and re-encoding with sharp (libvips). Only the processing function imports this,
 * so only its bundle carries the native library.
 */
import sharp from 'sharp';
import { MEDIUM_MAX_SIDE, PHOTO_MAX_SIDE, THUMB_MAX_SIDE } from './rules.ts';

/** Refuse images that would decode to more pixels than this (decompression bombs). */
const MAX_INPUT_PIXELS = 40_000_000;

/** The format libvips finds in the bytes (`jpeg`, `png`, `webp`, ...), or undefined when it cannot decode them. */
export async function decodedFormat(bytes: Buffer): Promise<string | undefined> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    return meta.format;
  } catch {
    return undefined;
  }
}

const encoder = (bytes: Buffer) => (side: number, quality: number) =>
  sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .rotate()
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality })
    .toBuffer();

/** The middle rendition (800 px): of an upload, and of a processed photo (the backfill of photos before it). */
export const renderMedium = (bytes: Buffer): Promise<Buffer> => encoder(bytes)(MEDIUM_MAX_SIDE, 80);

/**
 * The photo (longest side at most 1600 px), its middle rendition (800 px) and its thumbnail
 * (320 px), upright per the EXIF orientation and re-encoded as WebP without any metadata (sharp
 * drops EXIF, GPS, XMP and ICC unless asked to keep them). Throws when the image does not decode
 * in full.
 */
export async function renderPhoto(
  bytes: Buffer,
): Promise<{ photo: Buffer; medium: Buffer; thumbnail: Buffer }> {
  const encode = encoder(bytes);
  return {
    photo: await encode(PHOTO_MAX_SIDE, 82),
    medium: await renderMedium(bytes),
    thumbnail: await encode(THUMB_MAX_SIDE, 75),
  };
}
