import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, TABLE } from '#lib/db/client.ts';
import { consume } from '#lib/streams/consume.ts';
import type { ChangeProcessor, StreamChange } from '#lib/streams/types.ts';
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
