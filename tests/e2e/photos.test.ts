/**
 * Photos the way a browser and `npm start` do it: addPhoto over HTTP, the presigned POST to the S3
 * emulator, and s3rver's ObjectCreated:Post forwarded to the processor through serverless-offline's
 * Lambda port (tests/setup/e2e-server.ts).
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Book } from '#lib/books/schemas.ts';
import { AddedPhoto } from '#lib/photos/inputs.ts';
import { listKeys } from '#lib/photos/store.ts';
import { makeBookBody } from '#tests/helpers/books.ts';
import { api } from '#tests/helpers/e2e.ts';
import { download, jpegOrientation6, jpegWithGps, postUpload } from '#tests/helpers/photos.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

let seller: TestUser;
let other: TestUser;

beforeAll(async () => {
  seller = await makeUser({ firstName: 'Pia' });
  other = await makeUser({ firstName: 'Olaf' });
});

async function newBook(): Promise<Book> {
  const res = await api('POST', '/api/books/postBook', { token: seller.token, body: makeBookBody() });
  expect(res.status).toBe(201);
  return expectEnvelope(res.body, Book);
}

const addPhoto = (token: string, bookId: string, contentType = 'image/jpeg') =>
  api('POST', '/api/books/addPhoto', { token, body: { bookId, contentType } });

/** The caller's book as getUsersPosts shows it, once `done` holds (processing is asynchronous). */
async function ownBookUntil(bookId: string, done: (b: Book) => boolean, timeoutMs = 30_000): Promise<Book> {
  const deadline = Date.now() + timeoutMs;
  let last: Book | undefined;
  while (Date.now() < deadline) {
    const res = await api('GET', '/api/books/getUsersPosts', { token: seller.token });
    last = expectEnvelope(res.body, z.array(Book)).find((b) => b.id === bookId);
    if (last && done(last)) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`book ${bookId} did not settle: ${JSON.stringify(last)}`);
}

async function uploadUntilGone(bookId: string, bytes: Buffer) {
  const res = await addPhoto(seller.token, bookId);
  expect(res.status).toBe(201);
  const added = expectEnvelope(res.body, AddedPhoto);
  expect((await postUpload(added.upload, bytes, 'image/jpeg')).status).toBe(204);
  return added;
}

describe('photos over HTTP', () => {
  it('a JPEG with EXIF GPS appears on the book with its 800 px rendition and a thumbnail, and no file carries EXIF', async () => {
    const book = await newBook();
    const added = await uploadUntilGone(book.id, await jpegWithGps(1800, 900));
    const shown = await ownBookUntil(book.id, (b) => b.photos.length === 1);
    expect(shown.photos[0]?.id).toBe(added.photoId);
    for (const url of [shown.photos[0]?.url, shown.photos[0]?.mediumUrl, shown.photos[0]?.thumbnailUrl]) {
      const file = await download(url as string);
      expect(file.status).toBe(200);
      const meta = await sharp(file.bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(file.bytes.includes(Buffer.from('TestCam'))).toBe(false);
    }
    const full = await sharp((await download(shown.photos[0]?.url as string)).bytes).metadata();
    expect([full.width, full.height]).toEqual([1600, 800]);
    const medium = await sharp((await download(shown.photos[0]?.mediumUrl as string)).bytes).metadata();
    expect([medium.width, medium.height]).toEqual([800, 400]);
    // The public listing shows it too, with the same plain URLs.
    const listing = await api('GET', '/api/books/getAllBooks?limit=50', { token: other.token });
    const listed = expectEnvelope(listing.body, z.array(Book)).find((b) => b.id === book.id);
    expect(listed?.photos).toEqual(shown.photos);
  });

  it('a photo with EXIF orientation 6 comes out upright', async () => {
    const book = await newBook();
    await uploadUntilGone(book.id, await jpegOrientation6(90, 30));
    const shown = await ownBookUntil(book.id, (b) => b.photos.length === 1);
    const meta = await sharp((await download(shown.photos[0]?.url as string)).bytes).metadata();
    expect([meta.width, meta.height]).toEqual([30, 90]);
  });

  it('a text file uploaded as image/jpeg never appears and is deleted', async () => {
    const book = await newBook();
    const added = await uploadUntilGone(book.id, Buffer.from('plain text, not a JPEG\n'.repeat(10)));
    // The processor frees the slot when it refuses the file: wait for that, then check nothing shows.
    const deadline = Date.now() + 30_000;
    while ((await listKeys(`incoming/${book.id}/`)).length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 250));
    expect(await listKeys(`incoming/${book.id}/`)).toEqual([]);
    expect(await listKeys(`photos/${book.id}/`)).toEqual([]);
    const shown = await ownBookUntil(book.id, () => true);
    expect(shown.photos).toEqual([]);
    const again = await api('POST', '/api/books/removePhoto', {
      token: seller.token,
      body: { bookId: book.id, photoId: added.photoId },
    });
    expect(again.status).toBe(404);
  });

  it("another user's book is 404, a sixth photo 409, and a permanent delete leaves no object", async () => {
    const book = await newBook();
    const refused = await addPhoto(other.token, book.id);
    expect(refused.status).toBe(404);
    expectError(refused.body, 'BOOK_NOT_FOUND');
    await uploadUntilGone(book.id, await jpegWithGps());
    await ownBookUntil(book.id, (b) => b.photos.length === 1);
    for (let i = 0; i < 4; i++) expect((await addPhoto(seller.token, book.id)).status).toBe(201);
    const sixth = await addPhoto(seller.token, book.id);
    expect(sixth.status).toBe(409);
    expectError(sixth.body, 'PHOTO_LIMIT');
    expect((await listKeys(`photos/${book.id}/`)).length).toBe(3); // the photo, its 800 px rendition, its thumbnail

    const del = await api('POST', '/api/books/deleteBook', {
      token: seller.token,
      body: { bookId: book.id, permanent: true },
    });
    expect(del.status).toBe(200);
    // The stream consumer deletes the files a moment after the book is gone.
    const deadline = Date.now() + 30_000;
    while ((await listKeys(`photos/${book.id}/`)).length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 250));
    expect(await listKeys(`photos/${book.id}/`)).toEqual([]);
    expect(await listKeys(`incoming/${book.id}/`)).toEqual([]);
  });
});
