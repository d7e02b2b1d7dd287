import { created, http } from '#lib/http/index.ts';
import { AddedPhoto, AddPhotoBody } from '#lib/photos/inputs.ts';
import { addPhoto } from '#lib/photos/photos.ts';

/** POST /api/books/addPhoto: reserves one of the book's 5 photo slots and answers a presigned POST for it. */
export const handler = http(
  {
    body: AddPhotoBody,
    response: AddedPhoto,
    status: 201,
    errors: [404, 409],
    summary: 'Start uploading a photo of one of your books (presigned S3 POST)',
  },
  async ({ body, principal }) => created(await addPhoto(principal.userId, body.bookId, body.contentType)),
);
