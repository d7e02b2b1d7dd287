/**
 * The local photo store: s3rver (an S3 emulator) in this process, with the bucket and a CORS rule
 * for browser uploads, and its ObjectCreated events for `incoming/` handed to `onUpload` (the
 * same filter as the bucket notification in serverless.yml).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { S3Event } from 'aws-lambda';
import S3rver from 's3rver';

export interface RunningS3 {
  /** the endpoint clients talk to, e.g. http://127.0.0.1:4569 */
  endpoint: string;
  bucket: string;
  /** where the files live on disk */
  directory: string;
  stop: () => Promise<void>;
}

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** CORS: the app's origins may POST uploads and GET photos. */
function corsXml(origins: string[]): string {
  const rules = origins
    .map(
      (o) =>
        `<CORSRule><AllowedOrigin>${escapeXml(o)}</AllowedOrigin><AllowedMethod>POST</AllowedMethod>` +
        '<AllowedMethod>GET</AllowedMethod><AllowedHeader>*</AllowedHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule>',
    )
    .join('');
  return `<CORSConfiguration>${rules}</CORSConfiguration>`;
}

interface S3rverStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  deleteObject(bucket: string, key: string): Promise<void>;
}

/**
 * s3rver 3.7.1 removes a key's folder when a delete leaves it empty. A PUT into that folder at the
 * same moment (two photos of one book: the processor deletes the first upload while the second is
 * arriving) has already made the folder and then cannot open its file: an unhandled error event
 * that ends the whole process (the test run, or `npm start`). S3 has no folders, so the store keeps
 * them: a delete removes the object's own files only.
 */
function keepDirectoriesOnDelete(server: S3rver): void {
  const store = (server as unknown as { store: S3rverStore }).store;
  store.deleteObject = async (bucket, key) => {
    await Promise.all(
      ['object', 'object.md5', 'metadata.json'].map((resource) =>
        unlink(store.getResourcePath(bucket, key, resource)).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
        }),
      ),
    );
  };
}

export async function startS3(options: {
  port: number;
  bucket: string;
  corsOrigins: string[];
  /** kept across restarts when given; else a fresh temporary directory, removed on stop */
  directory?: string;
  onUpload?: (event: S3Event) => Promise<unknown>;
  onError?: (err: Error) => void;
}): Promise<RunningS3> {
  const directory = options.directory ?? mkdtempSync(path.join(os.tmpdir(), 'campus-books-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port,
    silent: true,
    directory,
    configureBuckets: [
      { name: options.bucket, configs: options.corsOrigins.length > 0 ? [corsXml(options.corsOrigins)] : [] },
    ],
  });
  keepDirectoriesOnDelete(server);
  server.on('event', (event: S3Event) => {
    const record = event.Records?.[0];
    if (!record?.eventName.startsWith('ObjectCreated:')) return;
    if (record.s3.bucket.name !== options.bucket || !record.s3.object.key.startsWith('incoming/')) return;
    options.onUpload?.(event).catch((err: Error) => (options.onError ?? console.error)(err));
  });
  const http = await server.run();
  const httpServer = (server as unknown as { httpServer: Server }).httpServer;
  return {
    endpoint: `http://127.0.0.1:${http.port}`,
    bucket: options.bucket,
    directory,
    stop: async () => {
      httpServer.closeAllConnections?.();
      await server.close();
      if (!options.directory) rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Hands an S3 event to a function of serverless-offline through its Lambda invoke port. */
export function invokeThroughOffline(lambdaPort: number, functionName: string) {
  return async (event: S3Event): Promise<unknown> => {
    const res = await fetch(
      `http://127.0.0.1:${lambdaPort}/2015-03-31/functions/${functionName}/invocations`,
      { method: 'POST', body: JSON.stringify(event) },
    );
    const text = await res.text();
    if (!res.ok || res.headers.get('x-amz-function-error'))
      throw new Error(`${functionName} failed (${res.status}): ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : undefined;
  };
}
