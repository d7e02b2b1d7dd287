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
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('sesUrl', ses.url);
  const isbn = await startIsbnStandin(await freePort());
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('isbnStandinUrl', isbn.url);
  return async () => {
    await isbn.stop();
    await s3.stop();
    await ses.stop();
    await dynamo.stop();
  };
}
