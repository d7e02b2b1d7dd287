/** `npm start` seeds a default hand-over point for the README's campus, once. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { expect, it } from 'vitest';
import { emulatorCredentials } from '#lib/aws/client-options.ts';
import { config } from '#lib/config.ts';
import { getHandoverPoint, listHandoverPoints } from '#lib/db/handovers.ts';
import { TABLE } from '#lib/table/client.ts';
import { isOpenAt } from '#lib/values/hours.ts';
import { DEFAULT_HANDOVER_POINT, seedLocalData } from '#scripts/local/seed.ts';

it('writes the default hand-over point when it is missing, and leaves an edited one alone', async () => {
  const client = new DynamoDBClient({
    endpoint: config.DYNAMODB_ENDPOINT,
    region: config.AWS_REGION,
    credentials: emulatorCredentials,
  });
  try {
    expect(await seedLocalData(client, TABLE)).toBe(true);
    expect(await seedLocalData(client, TABLE)).toBe(false);
    const point = await getHandoverPoint(DEFAULT_HANDOVER_POINT.id);
    expect(point).toEqual(DEFAULT_HANDOVER_POINT);
    expect((await listHandoverPoints('uni.edu')).map((p) => p.id)).toContain(DEFAULT_HANDOVER_POINT.id);
    // open on a weekday afternoon in New York, closed on a Sunday
    expect(isOpenAt(DEFAULT_HANDOVER_POINT.hours, 'America/New_York', new Date('2026-12-01T19:00:00Z'))).toBe(
      true,
    );
    expect(isOpenAt(DEFAULT_HANDOVER_POINT.hours, 'America/New_York', new Date('2026-12-06T19:00:00Z'))).toBe(
      false,
    );
  } finally {
    client.destroy();
  }
});
