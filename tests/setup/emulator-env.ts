/**
 * Points the service's configuration at the emulators the global setup started (tests/setup/
 * emulators.ts); each tier then names its table.
 */
import { inject } from 'vitest';

export function pointAtEmulators(): void {
  process.env.STAGE = 'test';
  process.env.DYNAMODB_ENDPOINT = inject('dynamoEndpoint');
  process.env.SES_ENDPOINT = inject('sesUrl');
  process.env.S3_ENDPOINT = inject('s3Endpoint');
  process.env.PHOTOS_BUCKET = 'campus-books-test-photos';
  process.env.ISBN_LOOKUP_URL = inject('isbnStandinUrl');
  process.env.PHOTOS_PUBLIC_URL = `${inject('s3Endpoint')}/campus-books-test-photos`;
  process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'CRITICAL';
}
