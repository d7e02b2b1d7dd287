/**
 * Data the local stack starts with (scripts/start.ts): a default hand-over point, so a student on
 * the README's campus (`uni.edu`) can agree a hand-over without an admin setting one up first.
 * Written only when absent: a persisted table (DYNAMODB_PERSIST=1) keeps an admin's edits.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { HandoverPointRecord } from '#lib/db/handovers.ts';

export const DEFAULT_HANDOVER_POINT: HandoverPointRecord = {
  type: 'handoverPoint',
  id: 'local-library',
  campus: 'uni.edu',
  name: 'Library',
  location: 'Front desk, ground floor',
  timeZone: 'America/New_York',
  hours: [
    ...[1, 2, 3, 4, 5].map((day) => ({ day, opens: '09:00', closes: '17:00' })),
    { day: 6, opens: '10:00', closes: '14:00' },
  ],
  updatedAt: '2026-01-01T00:00:00.000Z',
};

/** Writes the local defaults that are missing; true when the point was written now. */
export async function seedLocalData(client: DynamoDBClient, tableName: string): Promise<boolean> {
  const doc = DynamoDBDocumentClient.from(client);
  // Imported here, not at the top: lib/db loads the service's configuration when imported, and
  // `npm start` must check that configuration itself first, naming a bad value in one line
  // (tests/integration/local/preflight.test.ts).
  const { handoverPointItem } = await import('#lib/db/handovers.ts');
  try {
    await doc.send(
      new PutCommand({
        TableName: tableName,
        Item: handoverPointItem(DEFAULT_HANDOVER_POINT),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (err) {
    if ((err as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}
