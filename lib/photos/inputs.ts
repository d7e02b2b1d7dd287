/** Input and answer schemas of the photo endpoints (strict: unknown fields are refused). */

import { BookId } from '#lib/books/inputs.ts';
import { PHOTO_CONTENT_TYPES } from '#lib/values/photos.ts';
import * as z from '#lib/zod.ts';

export const AddPhotoBody = z.strictObject({ bookId: BookId, contentType: z.enum(PHOTO_CONTENT_TYPES) });
export const RemovePhotoBody = z.strictObject({
  bookId: BookId,
  photoId: z.string().check(z.minLength(1), z.maxLength(64)),
});

/** A presigned S3 POST: send `fields` then the file as multipart/form-data to `url`. */
export const AddedPhoto = z.strictObject({
  photoId: z.string(),
  upload: z.strictObject({ url: z.string().check(z.url()), fields: z.record(z.string(), z.string()) }),
});
