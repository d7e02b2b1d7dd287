import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { localClient } from '#scripts/local/dynamodb.ts';
import { ensureTable } from '#scripts/local/table.ts';
import { pointAtEmulators } from '#tests/setup/emulator-env.ts';

// Each test file gets its own table (same definition as serverless.yml), so files never see each
// other's data and can run in parallel.
pointAtEmulators();
process.env.TABLE_NAME = `it-${randomBytes(6).toString('hex')}`;
process.env.PASSWORD_HASH_MEMORY_KIB = process.env.PASSWORD_HASH_MEMORY_KIB ?? '256';
process.env.PASSWORD_HASH_PASSES = process.env.PASSWORD_HASH_PASSES ?? '1';
// every test calls from 127.0.0.1: only the sending-caps test keeps the per-IP and global caps low
process.env.MAIL_CAP_PER_IP_HOURLY = '1000000';
process.env.MAIL_CAP_GLOBAL_HOURLY = '1000000';

const client = localClient(inject('dynamoEndpoint'));
await ensureTable(client, process.env.TABLE_NAME);
client.destroy();
