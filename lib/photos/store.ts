/** The photo store (S3; s3rver locally): the one module that talks to S3 (object keys: urls.ts). */
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost, type PresignedPost } from '@aws-sdk/s3-presigned-post';
import { clientOptions } from '#lib/aws/client-options.ts';
import { config } from '#lib/config.ts';
import type { PhotoContentType } from '#lib/values/photos.ts';
import { INCOMING_PREFIX, PHOTOS_PREFIX } from '#lib/values/photos.ts';
import { SLOT_TTL_SECONDS, uploadConditions } from './rules.ts';

const emulated = Boolean(config.S3_ENDPOINT);
let client: S3Client | undefined;
/** The S3 client, built on first use (not at module load), then kept for the container. */
const s3 = (): S3Client =>
  (client ??= new S3Client({
    ...clientOptions,
    region: config.AWS_REGION,
    ...(emulated
      ? {
          endpoint: config.S3_ENDPOINT,
          forcePathStyle: true,
          credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        }
      : {}),
  }));
const Bucket = config.PHOTOS_BUCKET;

/** A presigned POST for one upload: that key, that content type, at most 5 MB, 15 minutes. */
export async function presignUpload(key: string, contentType: PhotoContentType): Promise<PresignedPost> {
  return createPresignedPost(s3(), {
    Bucket,
    Key: key,
    Conditions: uploadConditions(key, contentType) as NonNullable<
      Parameters<typeof createPresignedPost>[1]['Conditions']
    >,
    Fields: { 'Content-Type': contentType },
    Expires: SLOT_TTL_SECONDS,
  });
}

/** Size and content type of an object, or undefined when it is not there. */
export async function headObject(
  key: string,
): Promise<{ size: number; contentType: string | undefined } | undefined> {
  try {
    const out = await s3().send(new HeadObjectCommand({ Bucket, Key: key }));
    return { size: out.ContentLength ?? 0, contentType: out.ContentType };
  } catch (err) {
    if (err instanceof NotFound || err instanceof NoSuchKey) return undefined;
    if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
      return undefined;
    throw err;
  }
}

/** An object's bytes, or undefined when it is not there. */
export async function readObject(key: string): Promise<Buffer | undefined> {
  try {
    const out = await s3().send(new GetObjectCommand({ Bucket, Key: key }));
    return Buffer.from((await out.Body?.transformToByteArray()) ?? []);
  } catch (err) {
    if (err instanceof NoSuchKey) return undefined;
    throw err;
  }
}

export async function writeObject(key: string, body: Buffer, contentType: string): Promise<void> {
  await s3().send(
    new PutObjectCommand({
      Bucket,
      Key: key,
      Body: body,
      ContentType: contentType,
      CacheControl: 'public, max-age=31536000, immutable',
    }),
  );
}

/** Deletes these objects (missing ones are fine). */
export async function deleteObjects(keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) {
    const chunk = keys.slice(i, i + 1000);
    if (chunk.length === 0) continue;
    await s3().send(
      new DeleteObjectsCommand({ Bucket, Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true } }),
    );
  }
}

/** Every key under a prefix. */
export async function listKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const out = await s3().send(
      new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
    );
    keys.push(...(out.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : [])));
    token = out.IsTruncated ? out.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

/** Everything stored for one book: uploads and processed photos. */
export async function deleteBookObjects(bookId: string): Promise<void> {
  const keys = [
    ...(await listKeys(`${INCOMING_PREFIX}${bookId}/`)),
    ...(await listKeys(`${PHOTOS_PREFIX}${bookId}/`)),
  ];
  await deleteObjects(keys);
}
