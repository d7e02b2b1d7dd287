import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '#scripts/local/dynamodb.ts';
import { startIsbnStandin } from '#scripts/local/isbn-standin.ts';
import { freePort } from '#scripts/local/ports.ts';
import { startS3 } from '#scripts/local/s3.ts';
import { startSes } from '#scripts/local/ses.ts';

/**
 * Integration tier: its own DynamoDB Local, SES emulator, S3 emulator and Open Library stand-in
 * on free ports. Uploads to
 * the shared bucket are not processed here: photo tests start an S3 emulator of their own in the
 * test's process and run the processor in-process (tests/helpers/photos.ts).
 */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal({ port: await freePort(), quiet: true });
  const ses = await startSes(await freePort());
  const s3 = await startS3({ port: await freePort(), bucket: 'campus-books-test-photos', corsOrigins: [] });
  const isbn = await startIsbnStandin(await freePort());
  return provideEmulators(project, { dynamo, ses, s3, isbn });
}

type Stoppable = { stop(): Promise<void> };

/** The four emulators every tier that talks to them starts, whatever their settings. */
export interface Emulators {
  dynamo: Stoppable & { endpoint: string };
  ses: Stoppable & { url: string };
  s3: Stoppable & { endpoint: string };
  isbn: Stoppable & { url: string };
}

/**
 * Hands the emulators' addresses to the tests (`inject`) and answers the teardown: `before` (what
 * runs on top of them, e.g. the HTTP server) stops first, then the emulators, the last started first.
 */
export function provideEmulators(project: TestProject, e: Emulators, before: Stoppable[] = []) {
  project.provide('dynamoEndpoint', e.dynamo.endpoint);
  project.provide('sesUrl', e.ses.url);
  project.provide('s3Endpoint', e.s3.endpoint);
  project.provide('isbnStandinUrl', e.isbn.url);
  return async () => {
    for (const running of [...before, e.isbn, e.s3, e.ses, e.dynamo]) await running.stop();
  };
}
