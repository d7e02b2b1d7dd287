/**
 * Photos against the emulators: addPhoto's presigned POST, the upload through s3rver, the
 * processor run in-process on s3rver's ObjectCreated:Post event, and the stored state after it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as processHandler } from '#functions/photos/process.ts';
import { processors } from '#functions/streams/processors.ts';
import { Book } from '#lib/books/schemas.ts';
import { getBook } from '#lib/db/books.ts';
import { expiredSlots } from '#lib/db/photos.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { AddedPhoto } from '#lib/photos/inputs.ts';
import { sweepExpiredSlots } from '#lib/photos/photos.ts';
import { MAX_UPLOAD_BYTES, SLOT_TTL_SECONDS } from '#lib/photos/rules.ts';
import { deleteObjects, listKeys, readObject } from '#lib/photos/store.ts';
import { consume } from '#lib/streams/consume.ts';
import { incomingKey, mediumKey, photoKey } from '#lib/values/photos.ts';
import * as z from '#lib/zod.ts';
import { backfillPhotoRenditions } from '#scripts/migrations/photo-renditions.ts';
import { booksApi } from '#tests/helpers/book-api.ts';
import { putBook } from '#tests/helpers/books.ts';
import { makeContext } from '#tests/helpers/lambda.ts';
import {
  download,
  jpegOrientation6,
  jpegWithGps,
  png,
  postUpload,
  TEST_PHOTOS_BUCKET,
} from '#tests/helpers/photos.ts';
import { expectEnvelope, expectError } from '#tests/helpers/schema.ts';
import { asEvent, StreamReader } from '#tests/helpers/stream.ts';
import { makeUser, type TestUser } from '#tests/helpers/users.ts';

// Before anything reads lib/config.ts: this file's own S3 emulator, processing in-process.
const store = await vi.hoisted(async () => {
  const { startPhotoStore } = await import('#tests/helpers/photos.ts');
  return startPhotoStore();
});

let seller: TestUser;
let other: TestUser;

beforeAll(async () => {
  seller = await makeUser({ firstName: 'Sally' });
  other = await makeUser({ firstName: 'Otto' });
});
afterAll(() => store.stop());

const sharpOf = async (bytes: Buffer) => (await import('sharp')).default(bytes);

async function addPhoto(user: TestUser, bookId: string, contentType = 'image/jpeg') {
  const res = await booksApi.addPhoto(user.token, { bookId, contentType });
  return { res, added: res.status === 201 ? expectEnvelope(res.json(), AddedPhoto) : undefined };
}

/** The browser's POST of `bytes` with the slot addPhoto gave, then wait for the processor. */
async function send(added: z.infer<typeof AddedPhoto>, bytes: Buffer, contentType = 'image/jpeg') {
  const fields = { ...added.upload.fields, 'Content-Type': contentType };
  const posted = await postUpload({ ...added.upload, fields }, bytes, contentType);
  expect(posted.status).toBe(204);
  await store.idle();
  return added;
}

/** addPhoto, then the browser's POST, then wait for the processor. */
async function upload(book: BookRecord, bytes: Buffer, contentType = 'image/jpeg', declared = contentType) {
  const { res, added } = await addPhoto(seller, book.id, declared);
  expect(res.status).toBe(201);
  if (!added) throw new Error('no upload');
  return send(added, bytes, contentType);
}

const stored = async (bookId: string) => (await getBook(bookId)) as BookRecord;

describe('addPhoto', () => {
  it('answers 201 with a presigned POST pinning the key, the exact content type and at most 5 MB', async () => {
    const book = await putBook({ ownerId: seller.id });
    const { res, added } = await addPhoto(seller, book.id, 'image/png');
    expect(res.status).toBe(201);
    if (!added) throw new Error('no answer');
    expect(added.upload.url).toBe(`${store.s3.endpoint}/${TEST_PHOTOS_BUCKET}`);
    const key = incomingKey(book.id, added.photoId);
    expect(added.upload.fields.key).toBe(key);
    expect(added.upload.fields['Content-Type']).toBe('image/png');
    const policy = JSON.parse(Buffer.from(added.upload.fields.Policy as string, 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        { key },
        ['eq', '$Content-Type', 'image/png'],
        ['content-length-range', 1, MAX_UPLOAD_BYTES],
        { bucket: TEST_PHOTOS_BUCKET },
      ]),
    );
    // Nothing in the policy lets another key, type or size through.
    expect(JSON.stringify(policy.conditions)).not.toMatch(/starts-with/);
    const expiresIn = Date.parse(policy.expiration) - Date.now();
    expect(expiresIn).toBeGreaterThan((SLOT_TTL_SECONDS - 60) * 1000);
    expect(expiresIn).toBeLessThanOrEqual(SLOT_TTL_SECONDS * 1000);
    const after = await stored(book.id);
    expect(after.photoSlots?.[added.photoId]?.contentType).toBe('image/png');
    expect(after.photos ?? []).toEqual([]);
  });

  it("answers 404 for another user's book, and for a book that does not exist", async () => {
    const book = await putBook({ ownerId: seller.id });
    const { res } = await addPhoto(other, book.id);
    expect(res.status).toBe(404);
    expectError(res.json(), 'BOOK_NOT_FOUND');
    expect((await stored(book.id)).photoSlots).toBeUndefined();
    expect((await addPhoto(seller, 'NOSUCHBOOK')).res.status).toBe(404);
  });

  it('answers 409 for a book that was bought', async () => {
    const book = await putBook({ ownerId: seller.id, status: 1 });
    const { res } = await addPhoto(seller, book.id);
    expect(res.status).toBe(409);
    expect((await stored(book.id)).photoSlots).toBeUndefined();
  });

  it('refuses unknown content types and fields with 400', async () => {
    const book = await putBook({ ownerId: seller.id });
    expect((await addPhoto(seller, book.id, 'image/gif')).res.status).toBe(400);
    const res = await booksApi.addPhoto(seller.token, {
      bookId: book.id,
      contentType: 'image/jpeg',
      key: 'x',
    });
    expect(res.status).toBe(400);
    expect((await stored(book.id)).photoSlots).toBeUndefined();
  });

  it('answers 409 for a sixth photo, pending slots included', async () => {
    const book = await putBook({ ownerId: seller.id });
    for (let i = 0; i < 5; i++) expect((await addPhoto(seller, book.id)).res.status).toBe(201);
    const { res } = await addPhoto(seller, book.id);
    expect(res.status).toBe(409);
    expectError(res.json(), 'PHOTO_LIMIT');
    expect(Object.keys((await stored(book.id)).photoSlots ?? {})).toHaveLength(5);
  });

  it('never makes a sixth when two are requested at once', async () => {
    const book = await putBook({ ownerId: seller.id });
    for (let i = 0; i < 4; i++) expect((await addPhoto(seller, book.id)).res.status).toBe(201);
    const both = await Promise.all([addPhoto(seller, book.id), addPhoto(seller, book.id)]);
    expect(both.map((b) => b.res.status).sort()).toEqual([201, 409]);
    expect(Object.keys((await stored(book.id)).photoSlots ?? {})).toHaveLength(5);
  });

  it('counts a pending slot until its POST expires, then frees its place', async () => {
    const book = await putBook({ ownerId: seller.id });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await addPhoto(seller, book.id)).added?.photoId as string);
    expect((await addPhoto(seller, book.id)).res.status).toBe(409);
    // Sixteen minutes later the sweeper frees all five, and each leaves nothing behind.
    const later = new Date(Date.now() + (SLOT_TTL_SECONDS + 60) * 1000);
    const laterSeconds = Math.floor(later.getTime() / 1000);
    const mine = (await expiredSlots(laterSeconds, 1000)).filter((s) => s.bookId === book.id);
    expect(mine.map((s) => s.photoId).sort()).toEqual([...ids].sort());
    while ((await sweepExpiredSlots({ now: later, limit: 100 })) > 0);
    expect((await stored(book.id)).photoSlots ?? {}).toEqual({});
    expect((await expiredSlots(laterSeconds, 1000)).filter((s) => s.bookId === book.id)).toEqual([]);
    expect(await listKeys(`incoming/${book.id}/`)).toEqual([]);
    expect((await addPhoto(seller, book.id)).res.status).toBe(201);
  });

  it('drops expired slots when counting, in the same conditional write', async () => {
    const book = await putBook({ ownerId: seller.id });
    for (let i = 0; i < 5; i++) await addPhoto(seller, book.id);
    // One slot's POST expired (as if 15 minutes passed for it), the sweeper has not run yet.
    const { db, TABLE } = await import('#lib/table/client.ts');
    const { UpdateCommand } = await import('#lib/table/commands.ts');
    const { bookKey } = await import('#lib/db/keys.ts');
    const first = Object.keys((await stored(book.id)).photoSlots ?? {})[0] as string;
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: bookKey(book.id),
        UpdateExpression: 'SET photoSlots.#id.expiresAt = :past',
        ExpressionAttributeNames: { '#id': first },
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const { res, added } = await addPhoto(seller, book.id);
    expect(res.status).toBe(201);
    const slots = Object.keys((await stored(book.id)).photoSlots ?? {});
    expect(slots).toHaveLength(5);
    expect(slots).not.toContain(first);
    expect(slots).toContain(added?.photoId);
  });
});

describe('processing an upload', () => {
  it('attaches a JPEG with EXIF GPS as a photo, its 800 px rendition and a thumbnail, none carrying any EXIF', async () => {
    const book = await putBook({ ownerId: seller.id });
    const original = await jpegWithGps(2000, 1500);
    expect((await (await sharpOf(original)).metadata()).exif).toBeDefined();
    const added = await upload(book, original);
    expect(store.outcomes.at(-1)).toBe('attached');

    const after = await stored(book.id);
    expect(after.photos).toEqual([{ id: added.photoId }]);
    expect(after.photoSlots).toEqual({});
    const posts = expectEnvelope((await booksApi.getUsersPosts(seller.token)).json(), z.array(Book));
    const shown = posts.find((b) => b.id === book.id);
    expect(shown?.photos).toHaveLength(1);
    const photo = shown?.photos[0];
    expect(photo?.id).toBe(added.photoId);

    const full = await download(photo?.url as string);
    const medium = await download(photo?.mediumUrl as string);
    const thumb = await download(photo?.thumbnailUrl as string);
    expect([full.status, medium.status, thumb.status]).toEqual([200, 200, 200]);
    const fullMeta = await (await sharpOf(full.bytes)).metadata();
    const mediumMeta = await (await sharpOf(medium.bytes)).metadata();
    const thumbMeta = await (await sharpOf(thumb.bytes)).metadata();
    expect([fullMeta.width, fullMeta.height]).toEqual([1600, 1200]);
    expect([mediumMeta.width, mediumMeta.height, mediumMeta.format]).toEqual([800, 600, 'webp']);
    expect([thumbMeta.width, thumbMeta.height]).toEqual([320, 240]);
    for (const meta of [fullMeta, mediumMeta, thumbMeta]) {
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
    }
    for (const bytes of [full.bytes, medium.bytes, thumb.bytes]) {
      expect(bytes.includes(Buffer.from('TestCam'))).toBe(false);
      expect(bytes.includes(Buffer.from('Exif'))).toBe(false);
    }
    // The upload itself is gone; only the processed files remain.
    expect(await listKeys(`incoming/${book.id}/`)).toEqual([]);
    expect((await listKeys(`photos/${book.id}/`)).sort()).toEqual(
      [
        `photos/${book.id}/${added.photoId}-800.webp`,
        `photos/${book.id}/${added.photoId}-thumb.webp`,
        `photos/${book.id}/${added.photoId}.webp`,
      ].sort(),
    );
    // The listing shows it too.
    const listing = expectEnvelope((await booksApi.getAllBooks(other.token)).json(), z.array(Book));
    expect(listing.find((b) => b.id === book.id)?.photos[0]?.thumbnailUrl).toBe(photo?.thumbnailUrl);
  });

  it('changes nothing when the same event is delivered again', async () => {
    const book = await putBook({ ownerId: seller.id });
    const added = await upload(book, await jpegWithGps());
    const before = await stored(book.id);
    const event = {
      Records: [
        {
          eventName: 'ObjectCreated:Post',
          s3: { bucket: { name: TEST_PHOTOS_BUCKET }, object: { key: incomingKey(book.id, added.photoId) } },
        },
      ],
    };
    const again = await processHandler(event as never);
    expect(again.outcomes).toEqual(['unchanged']);
    expect(await stored(book.id)).toEqual(before);
    expect((await listKeys(`photos/${book.id}/`)).length).toBe(3);
  });

  it('turns a photo with EXIF orientation 6 upright', async () => {
    const book = await putBook({ ownerId: seller.id });
    await upload(book, await jpegOrientation6(60, 20));
    const photo = expectEnvelope((await booksApi.getUsersPosts(seller.token)).json(), z.array(Book)).find(
      (b) => b.id === book.id,
    )?.photos[0];
    const full = await download(photo?.url as string);
    const image = await sharpOf(full.bytes);
    const meta = await image.metadata();
    expect([meta.width, meta.height]).toEqual([20, 60]);
    expect(meta.orientation).toBeUndefined();
    const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => data[(y * info.width + x) * info.channels] as number;
    expect(at(10, 5)).toBeLessThan(60); // top: the stored left half, black
    expect(at(10, 54)).toBeGreaterThan(200); // bottom: white
  });

  it('never attaches a text file uploaded as image/jpeg, deletes it and frees its slot', async () => {
    const book = await putBook({ ownerId: seller.id });
    const added = await upload(book, Buffer.from('this is not an image at all\n'.repeat(20)));
    expect(store.outcomes.at(-1)).toBe('not-an-image');
    const after = await stored(book.id);
    expect(after.photos ?? []).toEqual([]);
    expect(after.photoSlots?.[added.photoId]).toBeUndefined();
    expect(await listKeys(`incoming/${book.id}/`)).toEqual([]);
    expect(await listKeys(`photos/${book.id}/`)).toEqual([]);
  });

  it("shows its owner (getBook's pendingPhotos) each upload until it is checked: attached, or refused and gone; nobody else", async () => {
    const book = await putBook({ ownerId: seller.id });
    const view = async (token?: string) => {
      const res = await booksApi.getBook(book.id, token);
      expect(res.status).toBe(200);
      return expectEnvelope(res.json(), Book);
    };
    // addPhoto's slot, before its upload: pending, to its owner only
    const { added: waiting } = await addPhoto(seller, book.id);
    if (!waiting) throw new Error('no upload');
    expect((await view(seller.token)).pendingPhotos).toEqual([waiting.photoId]);
    expect(Object.keys(await view(other.token))).not.toContain('pendingPhotos');
    expect(Object.keys(await view())).not.toContain('pendingPhotos');
    // uploaded and refused by the check: neither pending nor on the book
    await send(waiting, Buffer.from('not an image\n'.repeat(20)));
    expect(store.outcomes.at(-1)).toBe('not-an-image');
    const refused = await view(seller.token);
    expect([refused.pendingPhotos, refused.photos]).toEqual([[], []]);
    // a real one: on the book, no longer pending
    const attached = await upload(book, await jpegWithGps());
    const after = await view(seller.token);
    expect(after.pendingPhotos).toEqual([]);
    expect(after.photos.map((p) => p.id)).toEqual([attached.photoId]);
    expect((await stored(book.id)).photoSlots).toEqual({});
  });

  it('never attaches a PNG declared as image/jpeg', async () => {
    const book = await putBook({ ownerId: seller.id });
    await upload(book, await png());
    expect(store.outcomes.at(-1)).toBe('wrong-type');
    expect((await stored(book.id)).photos ?? []).toEqual([]);
    expect(await listKeys(`incoming/${book.id}/`)).toEqual([]);
  });

  it('refuses a 6 MB file (the emulator accepted it; the processor does not)', async () => {
    const book = await putBook({ ownerId: seller.id });
    const big = Buffer.concat([await jpegWithGps(), Buffer.alloc(6 * 1024 * 1024, 7)]);
    await upload(book, big);
    expect(store.outcomes.at(-1)).toBe('too-large');
    expect((await stored(book.id)).photos ?? []).toEqual([]);
    expect(await listKeys(`incoming/${book.id}/`)).toEqual([]);
    expect(await listKeys(`photos/${book.id}/`)).toEqual([]);
  });

  it('refuses an upload sent with another content type than the one declared', async () => {
    const book = await putBook({ ownerId: seller.id });
    await upload(book, await png(), 'image/png', 'image/jpeg');
    expect(store.outcomes.at(-1)).toBe('wrong-type');
    expect((await stored(book.id)).photos ?? []).toEqual([]);
    expect(await listKeys(`incoming/${book.id}/`)).toEqual([]);
  });
});

describe('removePhoto and deleting a book', () => {
  it('removes a photo and its files; another user gets 404', async () => {
    const book = await putBook({ ownerId: seller.id });
    const added = await upload(book, await jpegWithGps());
    const body = { bookId: book.id, photoId: added.photoId };
    const refused = await booksApi.removePhoto(other.token, body);
    expect(refused.status).toBe(404);
    expect((await stored(book.id)).photos).toHaveLength(1);
    const reader = new StreamReader();
    await reader.skipToEnd();

    const res = await booksApi.removePhoto(seller.token, body);
    expect(res.status).toBe(200);
    expect(expectEnvelope(res.json(), Book).photos).toEqual([]);
    expect((await stored(book.id)).photos).toEqual([]);
    // the files go in the stream consumer (no S3 client on the request path), fed the real stream,
    // twice (a redelivered record deletes nothing more and does not fail)
    expect((await listKeys(`photos/${book.id}/`)).length).toBe(3);
    const records = await reader.next();
    for (let i = 0; i < 2; i++)
      expect((await consume(asEvent(records), makeContext(), processors)).batchItemFailures).toEqual([]);
    expect(await listKeys(`photos/${book.id}/`)).toEqual([]);
    expect((await booksApi.removePhoto(seller.token, body)).status).toBe(404);
  });

  it('a permanent delete leaves no object of the book in the bucket', async () => {
    const book = await putBook({ ownerId: seller.id });
    await upload(book, await jpegWithGps());
    await addPhoto(seller, book.id); // and a pending slot
    expect((await listKeys(`photos/${book.id}/`)).length).toBe(3);
    const reader = new StreamReader();
    await reader.skipToEnd();
    const res = await booksApi.deleteBook(seller.token, { bookId: book.id, permanent: true });
    expect(res.status).toBe(200);
    expect(await getBook(book.id)).toBeNull();
    // The stream consumer, fed the table's real stream, deletes the files.
    const records = await reader.next();
    expect(records.some((r) => r.eventName === 'REMOVE')).toBe(true);
    const consumed = await consume(asEvent(records), makeContext(), processors);
    expect(consumed.batchItemFailures).toEqual([]);
    expect(await listKeys(`photos/${book.id}/`)).toEqual([]);
    expect(await listKeys(`incoming/${book.id}/`)).toEqual([]);
  });
});

describe('the backfill of middle renditions (scripts/backfill-photo-renditions.ts)', () => {
  it('makes the 800 px file of a photo processed before it, from the stored photo, once; leaves one with no stored photo', async () => {
    const book = await putBook({ ownerId: seller.id });
    const old = await upload(book, await jpegWithGps(2000, 1500));
    const lost = await upload(book, await jpegWithGps(400, 300));
    // as an earlier processor left them: no middle rendition; and one whose photo file is gone
    await deleteObjects([mediumKey(book.id, old.photoId), mediumKey(book.id, lost.photoId)]);
    await deleteObjects([photoKey(book.id, lost.photoId)]);
    expect(await readObject(mediumKey(book.id, old.photoId))).toBeUndefined();

    const progress: number[] = [];
    const first = await backfillPhotoRenditions(1000, (d) => progress.push(d.rendered));
    expect(first.rendered).toBe(1);
    expect(first.missing).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    const medium = await readObject(mediumKey(book.id, old.photoId));
    const meta = await (await sharpOf(medium as Buffer)).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([800, 600, 'webp']);
    expect(meta.exif).toBeUndefined();
    expect(await readObject(mediumKey(book.id, lost.photoId))).toBeUndefined();
    // the URL the API gives for it now answers
    const shown = expectEnvelope((await booksApi.getUsersPosts(seller.token)).json(), z.array(Book))
      .find((b) => b.id === book.id)
      ?.photos.find((p) => p.id === old.photoId);
    expect((await download(shown?.mediumUrl as string)).status).toBe(200);

    // a second run writes nothing: the file it made is kept as it is
    const second = await backfillPhotoRenditions();
    expect(second.rendered).toBe(0);
    expect(second.present).toBeGreaterThanOrEqual(1);
    expect((await readObject(mediumKey(book.id, old.photoId)))?.equals(medium as Buffer)).toBe(true);
  });
});
