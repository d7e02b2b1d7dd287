import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { localClient } from '#scripts/local/dynamodb.ts';
import { ensureTable } from '#scripts/local/table.ts';

// Each test file gets its own table (same definition as serverless.yml), so files never see each
// other's data and can run in parallel.
process.env.STAGE = 'test';
process.env.DYNAMODB_ENDPOINT = inject('dynamoEndpoint');
process.env.SES_ENDPOINT = inject('sesUrl');
process.env.S3_ENDPOINT = inject('s3Endpoint');
process.env.PHOTOS_BUCKET = 'campus-books-test-photos';
process.env.ISBN_LOOKUP_URL = inject('isbnStandinUrl');
process.env.PHOTOS_PUBLIC_URL = `${inject('s3Endpoint')}/campus-books-test-photos`;
process.env.TABLE_NAME = `it-${randomBytes(6).toString('hex')}`;
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'CRITICAL';
process.env.PASSWORD_HASH_MEMORY_KIB = process.env.PASSWORD_HASH_MEMORY_KIB ?? '256';
process.env.PASSWORD_HASH_PASSES = process.env.PASSWORD_HASH_PASSES ?? '1';
// every test calls from 127.0.0.1: only the sending-caps test keeps the per-IP and global caps low
process.env.MAIL_CAP_PER_IP_HOURLY = '1000000';
process.env.MAIL_CAP_GLOBAL_HOURLY = '1000000';

const client = localClient(inject('dynamoEndpoint'));
await ensureTable(client, process.env.TABLE_NAME);
client.destroy();
