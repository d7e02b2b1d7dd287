/**
 * The local photo store (scripts/local/s3.ts) under the photo processor's pattern: one upload of a
 * book deleted while another of the same book arrives. s3rver removed a key's folder when a delete
 * left it empty, and a PUT that had already made the folder then failed to open its file, an
 * unhandled error that ended the whole test run (CI, 2026-11-28). The store keeps folders now.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#scripts/local/ports.ts';
import { type RunningS3, startS3 } from '#scripts/local/s3.ts';

const BUCKET = 'emulator-test';
let s3: RunningS3;
let client: S3Client;

beforeAll(async () => {
  s3 = await startS3({ port: await freePort(), bucket: BUCKET, corsOrigins: [] });
  client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});
afterAll(async () => {
  client?.destroy();
  await s3?.stop();
});

const put = (key: string, body: string) =>
  client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }));
const del = (key: string) => client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }));
const read = async (key: string) =>
  (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body?.transformToString();

describe('the local photo store', () => {
  it('keeps a key’s folder when a delete empties it, so a PUT arriving there at that moment lands', async () => {
    await put('incoming/book1/a', 'first');
    await del('incoming/book1/a');
    expect(existsSync(path.join(s3.directory, BUCKET, 'incoming', 'book1'))).toBe(true);
    await expect(read('incoming/book1/a')).rejects.toMatchObject({ name: 'NoSuchKey' });
  });

  it('lands every upload of a book while the one before it is deleted', async () => {
    for (let i = 0; i < 40; i++) {
      const book = `incoming/race${i}`;
      await put(`${book}/first`, 'first');
      await Promise.all([del(`${book}/first`), put(`${book}/second`, `second ${i}`)]);
      expect(await read(`${book}/second`)).toBe(`second ${i}`);
    }
  });
});
