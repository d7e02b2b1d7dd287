/**
 * Photo test helpers: images made at test time with sharp (no fixture files, no exiftool), the
 * browser's presigned POST, and (integration tier) an S3 emulator in the test's own process whose
 * uploads run the processing handler in-process.
 */
import type { S3Event } from 'aws-lambda';
import sharp from 'sharp';
import { freePort } from '#scripts/local/ports.ts';
import { type RunningS3, startS3 } from '#scripts/local/s3.ts';

export const TEST_PHOTOS_BUCKET = 'campus-books-test-photos';

/** A JPEG `width` x `height` carrying EXIF with a GPS position (and a camera make). */
export async function jpegWithGps(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'GPS-1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 3230/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 4366/100',
      },
    })
    .toBuffer();
}

/**
 * A JPEG stored `width` x `height` with EXIF orientation 6 (shown rotated 90 degrees clockwise):
 * its left half is black and its right half white as stored, so upright its top is black.
 */
export async function jpegOrientation6(width = 60, height = 20): Promise<Buffer> {
  const half = Math.floor(width / 2);
  const black = await sharp({ create: { width: half, height, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#fff' } })
    .composite([{ input: black, left: 0, top: 0 }])
    .jpeg({ quality: 95 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** A PNG (for "declared JPEG, bytes say PNG"). */
export const png = (): Promise<Buffer> =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: '#0a0' } })
    .png()
    .toBuffer();

/** Sends a file the way a browser sends a presigned POST (fields first, then the file). */
export async function postUpload(
  upload: { url: string; fields: Record<string, string> },
  bytes: Buffer,
  contentType: string,
): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(upload.fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: contentType }), 'photo');
  return fetch(upload.url, { method: 'POST', body: form });
}

/** Reads a URL's bytes (a photo served by the emulator), or the status when it is not there. */
export async function download(url: string): Promise<{ status: number; bytes: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

export interface PhotoStore {
  s3: RunningS3;
  /** resolves when every upload received so far has been processed */
  idle: () => Promise<void>;
  /** the processor's outcome of each upload, in order */
  outcomes: string[];
  stop: () => Promise<void>;
}

/**
 * An S3 emulator for this test file, with the config pointed at it (call before anything loads
 * lib/config.ts, i.e. from `vi.hoisted`). Its ObjectCreated events run the processor in-process.
 */
export async function startPhotoStore(): Promise<PhotoStore> {
  const inflight = new Set<Promise<unknown>>();
  const outcomes: string[] = [];
  const run = async (event: S3Event) => {
    const { handler } = await import('#functions/photos/process.ts');
    outcomes.push(...(await handler(event)).outcomes);
  };
  const s3 = await startS3({
    port: await freePort(),
    bucket: TEST_PHOTOS_BUCKET,
    corsOrigins: [],
    onUpload: (event) => {
      const p = run(event);
      inflight.add(p);
      p.finally(() => inflight.delete(p)).catch(() => undefined);
      return p;
    },
  });
  process.env.S3_ENDPOINT = s3.endpoint;
  process.env.PHOTOS_BUCKET = TEST_PHOTOS_BUCKET;
  process.env.PHOTOS_PUBLIC_URL = `${s3.endpoint}/${TEST_PHOTOS_BUCKET}`;
  return {
    s3,
    outcomes,
    idle: async () => {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
    stop: s3.stop,
  };
}
