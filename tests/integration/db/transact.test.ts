import { describe, expect, it } from 'vitest';
import { counterItems, getGlobalStats, getUserStats } from '#lib/db/counters.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { GetCommand, PutCommand } from '#lib/table/commands.ts';
import {
  refusalOf,
  TransactionRefused,
  tag,
  tagAll,
  transactOrThrow,
  transactWrite,
} from '#lib/table/transact.ts';

const key = (id: string) => ({ pk: `T#${id}`, sk: 'T' });
const read = async (id: string) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key(id), ConsistentRead: true }))).Item;

describe('the transaction runner', () => {
  it('writes every item and answers ok', async () => {
    const id = `ok-${Date.now()}`;
    const outcome = await transactWrite([
      tag('thing', { Put: { TableName: TABLE, Item: { ...key(id), n: 1 } } }),
      ...tagAll('stats', counterItems({ users: [{ userId: id, deltas: { openRequests: 2 } }] })),
    ]);
    expect(outcome).toEqual({ ok: true });
    expect(await read(id)).toMatchObject({ n: 1 });
    expect((await getUserStats(id)).openRequests).toBe(2);
  });

  it('turns a cancellation into per-item refusals with the tag, the code and the current item', async () => {
    const id = `refused-${Date.now()}`;
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...key(id), n: 7 } }));
    const before = await getGlobalStats();
    const outcome = await transactWrite([
      tag('counter', counterItems({ global: { totalBooks: 1 } })[0] as never),
      tag('thing', {
        Put: {
          TableName: TABLE,
          Item: { ...key(id), n: 8 },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      }),
    ]);
    expect(outcome).toEqual({
      ok: false,
      refused: [{ tag: 'thing', index: 1, code: 'ConditionalCheckFailed', current: { ...key(id), n: 7 } }],
    });
    expect(refusalOf(outcome, 'thing')?.code).toBe('ConditionalCheckFailed');
    expect(refusalOf(outcome, 'counter')).toBeUndefined();
    // nothing was written
    expect(await read(id)).toMatchObject({ n: 7 });
    expect((await getGlobalStats()).totalBooks ?? 0).toBe(before.totalBooks ?? 0);
  });

  it('transactOrThrow throws TransactionRefused naming the refused items', async () => {
    const id = `throw-${Date.now()}`;
    const err = await transactOrThrow([
      tag('missing', {
        Update: {
          TableName: TABLE,
          Key: key(id),
          UpdateExpression: 'SET n = :n',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':n': 1 },
        },
      }),
    ]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransactionRefused);
    expect((err as TransactionRefused).refused).toEqual([
      { tag: 'missing', index: 0, code: 'ConditionalCheckFailed', current: null },
    ]);
    expect(await read(id)).toBeUndefined();
  });

  it('counters: many concurrent transactions on one hot counter all land (conflicts are retried)', async () => {
    const before = (await getGlobalStats()).totalOrders ?? 0;
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, () =>
        transactWrite(tagAll('stats', counterItems({ global: { totalOrders: 1 } }))),
      ),
    );
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect((await getGlobalStats()).totalOrders).toBe(before + 12);
  });
});

describe('the counters module', () => {
  it('sums the moves of one user into one item and leaves out zero moves', () => {
    const items = counterItems({
      global: { totalBooks: 0, books_s0: -2, books_s1: 2 },
      users: [
        { userId: 'u1', deltas: { activeListings: -1, booksSold: 1 } },
        { userId: 'u1', deltas: { activeListings: -1, booksSold: 1 } },
        { userId: 'u2', deltas: { booksBought: 0 } },
      ],
    });
    expect(items).toHaveLength(2);
    expect(items[0]?.Update?.ExpressionAttributeValues).toEqual({ ':c0': -2, ':c1': 2 });
    expect(items[1]?.Update?.ExpressionAttributeNames).toEqual({
      '#c0': 'activeListings',
      '#c1': 'booksSold',
    });
    expect(items[1]?.Update?.ExpressionAttributeValues).toEqual({ ':c0': -2, ':c1': 2 });
  });
});
