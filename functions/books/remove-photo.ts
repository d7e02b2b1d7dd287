import { Book } from '#lib/books/schemas.ts';
import { http } from '#lib/http/index.ts';
import { RemovePhotoBody } from '#lib/photos/inputs.ts';
import { removePhoto } from '#lib/photos/photos.ts';

/** POST /api/books/removePhoto: removes a photo (or a pending upload) of one of the caller's books. */
export const handler = http(
  {
    body: RemovePhotoBody,
    response: Book,
    errors: [404, 409],
    summary: 'Remove a photo of one of your books',
  },
  async ({ body, principal }) => removePhoto(principal.userId, body.bookId, body.photoId),
);
