/**
 * The benchmark's SDK floor (bench/harness/sdk-floor.ts) replays the DynamoDB calls a case's floor
 * makes: they are recorded once against DynamoDB Local, on the client the floor is given and through
 * the service's own modules alike. A floor that runs production code (the listing, the search) must
 * not record as "no calls", or its cold init is measured without a single round trip.
 */
import { describe, expect, it } from 'vitest';
import { recordFloorCalls } from '#bench/harness/sdk-floor.ts';
import { getBook } from '#lib/db/books.ts';
import { bookKey } from '#lib/db/keys.ts';
import { TABLE } from '#lib/table/client.ts';
import { GetCommand } from '#lib/table/commands.ts';

const endpoint = process.env.DYNAMODB_ENDPOINT as string;

describe("recording an SDK floor's calls", () => {
  it('records the calls sent through the service modules as well as those on the given client, in waves', async () => {
    const waves = await recordFloorCalls(
      {
        before: async () => {
          await getBook('before-is-not-the-request');
        },
        event: () => ({ route: '/api/books/getBook/{bookId}' }),
        floor: async (_i, client) => {
          await client.send(new GetCommand({ TableName: TABLE, Key: bookKey('on-the-client') }));
          await Promise.all([getBook('through-the-service-a'), getBook('through-the-service-b')]);
        },
      },
      0,
      endpoint,
    );
    expect(waves.map((w) => w.map((c) => [c.operation, (c.input.Key as { pk: string }).pk]))).toEqual([
      [['GetItem', bookKey('on-the-client').pk]],
      [
        ['GetItem', bookKey('through-the-service-a').pk],
        ['GetItem', bookKey('through-the-service-b').pk],
      ],
    ]);
  });
});
