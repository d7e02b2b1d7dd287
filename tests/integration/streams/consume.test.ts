import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { streamFailureKey } from '#lib/db/keys.ts';
import { consume } from '#lib/streams/consume.ts';
import { replayStreamFailures } from '#lib/streams/replay.ts';
import type { ChangeProcessor, StreamChange } from '#lib/streams/types.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, PutCommand } from '#lib/table/commands.ts';
import { makeContext } from '#tests/helpers/lambda.ts';
import { asEvent, StreamReader } from '#tests/helpers/stream.ts';

const put = (pk: string, extra: Record<string, unknown> = {}) =>
  db.send(new PutCommand({ TableName: TABLE, Item: { pk, sk: 'X', ...extra } }));

describe('the stream consumer engine', () => {
  it('hands each real stream record, unmarshalled and in order, to the processors that want it', async () => {
    const reader = new StreamReader();
    await reader.skipToEnd();
    await put('ENGINE#1', { n: 1 });
    await put('ENGINE#1', { n: 2 });
    const seen: StreamChange[] = [];
    const recorder: ChangeProcessor = {
      name: 'recorder',
      wants: (c) => String(c.keys.pk).startsWith('ENGINE#'),
      apply: async (c) => {
        seen.push(c);
      },
    };
    const records = await reader.next();
    const res = await consume(asEvent(records), makeContext(), [recorder]);
    expect(res.batchItemFailures).toEqual([]);
    expect(seen.map((c) => [c.eventName, c.oldImage?.n, c.newImage?.n])).toEqual([
      ['INSERT', undefined, 1],
      ['MODIFY', 1, 2],
    ]);
  });

  it('reports only the poison record as failed and applies the rest of the batch', async () => {
    const reader = new StreamReader();
    await reader.skipToEnd();
    await put('ENGINE#a');
    await put('ENGINE#poison');
    await put('ENGINE#b');
    const applied: string[] = [];
    const picky: ChangeProcessor = {
      name: 'picky',
      wants: () => true,
      apply: async (c) => {
        if (c.keys.pk === 'ENGINE#poison') throw new Error('cannot handle this one');
        applied.push(String(c.keys.pk));
      },
    };
    const records = await reader.next();
    const poison = records.find((r) => r.dynamodb?.Keys?.pk?.S === 'ENGINE#poison');
    const res = await consume(asEvent(records), makeContext(), [picky]);
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: poison?.dynamodb?.SequenceNumber }]);
    expect(applied).toEqual(['ENGINE#a', 'ENGINE#b']);
  });
});

const kept = async (eventId: string) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: streamFailureKey(eventId), ConsistentRead: true })))
    .Item;

/** Two processors of one key: `counted` records its side effects; `flaky` fails while `failing` says so. */
function pair(pkPrefix: string) {
  const effects = new Map<string, number>();
  const state = { failing: true, flakyRuns: 0 };
  const counted: ChangeProcessor = {
    name: 'counted',
    wants: (c) => String(c.keys.pk).startsWith(pkPrefix),
    apply: async (c) => {
      effects.set(c.eventId, (effects.get(c.eventId) ?? 0) + 1);
    },
  };
  const flaky: ChangeProcessor = {
    name: 'flaky',
    wants: (c) => String(c.keys.pk).startsWith(pkPrefix),
    apply: async () => {
      state.flakyRuns++;
      if (state.failing) throw new Error('SES is down');
    },
  };
  return { effects, state, processors: [flaky, counted] };
}

async function oneRecord(pk: string): Promise<DynamoDBRecord> {
  const reader = new StreamReader();
  await reader.skipToEnd();
  await put(pk, { n: 1 });
  const [record] = (await reader.next()).filter((r) => r.dynamodb?.Keys?.pk?.S === pk);
  return record as DynamoDBRecord;
}

describe('processors of one record run independently', () => {
  it('runs the other processors despite a failure, and a retry runs only the one that failed', async () => {
    const record = await oneRecord('ISOLATE#1');
    const { effects, state, processors } = pair('ISOLATE#');
    const first = await consume(asEvent([record]), makeContext(), processors);
    expect(first.batchItemFailures).toEqual([{ itemIdentifier: record.dynamodb?.SequenceNumber }]);
    // `counted` ran although `flaky`, before it, failed
    expect(effects.get(record.eventID as string)).toBe(1);
    const stored = await kept(record.eventID as string);
    expect(stored).toMatchObject({ consumer: 'main', done: ['counted'], failed: ['flaky'], attempts: 1 });
    expect(String(stored?.lastError)).toContain('SES is down');
    // kept whole: keys and images as delivered
    expect(JSON.parse(String(stored?.record))).toEqual(JSON.parse(JSON.stringify(record)));

    // The stream retries the record: still failing, then healed. `counted` never runs again.
    expect((await consume(asEvent([record]), makeContext(), processors)).batchItemFailures).toHaveLength(1);
    expect((await kept(record.eventID as string))?.attempts).toBe(2);
    state.failing = false;
    expect((await consume(asEvent([record]), makeContext(), processors)).batchItemFailures).toEqual([]);
    expect(effects.get(record.eventID as string)).toBe(1);
    expect(state.flakyRuns).toBe(3);
    expect(await kept(record.eventID as string)).toBeUndefined();
    // and a later redelivery runs both again, as at-least-once delivery always may
    await consume(asEvent([record]), makeContext(), processors);
    expect(effects.get(record.eventID as string)).toBe(2);
  });

  it('keeps a record that ran out of retries whole, and the replay applies only what failed, once', async () => {
    const record = await oneRecord('REPLAY#1');
    const { effects, state, processors } = pair('REPLAY#');
    for (let i = 0; i < 3; i++) await consume(asEvent([record]), makeContext(), processors);
    expect((await kept(record.eventID as string))?.attempts).toBe(3);
    // The stream gave up (the failure queue holds only positions): the kept record is what is left.
    const unknown = await replayStreamFailures({});
    expect(unknown.skipped).toBeGreaterThanOrEqual(1);
    expect(await kept(record.eventID as string)).toBeDefined();

    const stillDown = await replayStreamFailures({ main: processors });
    expect(stillDown.failed).toBeGreaterThanOrEqual(1);
    expect((await kept(record.eventID as string))?.attempts).toBe(4);

    state.failing = false;
    const lines: string[] = [];
    const healed = await replayStreamFailures({ main: processors }, (l) => lines.push(l));
    expect(healed.replayed).toBeGreaterThanOrEqual(1);
    expect(lines).toContain(`replayed ${record.eventID} (flaky)`);
    expect(effects.get(record.eventID as string)).toBe(1);
    expect(await kept(record.eventID as string)).toBeUndefined();
    // Nothing is left to replay from this record.
    await replayStreamFailures({ main: processors }, (l) => lines.push(l));
    expect(lines.filter((l) => l.includes(String(record.eventID)))).toEqual([
      `replayed ${record.eventID} (flaky)`,
    ]);
    expect(effects.get(record.eventID as string)).toBe(1);
  });
});
