/**
 * The DynamoDB meter and Scan guard as the SDK runs them: on a middleware stack of the SDK's own
 * kind (`constructStack`), in front of a handler that stands for the rest of the client (the
 * integration tests run them on the real client against DynamoDB Local).
 */
import { constructStack } from '@smithy/core/client';
import type { HandlerExecutionContext, InitializeHandlerArguments, MetadataBearer } from '@smithy/types';
import { afterEach, describe, expect, it } from 'vitest';
import {
  measured,
  meterOn,
  refuseScansOn,
  ScanForbiddenError,
  startMeasuring,
  stopMeasuring,
} from '#lib/table/metrics.ts';

type Consumed = { CapacityUnits: number; GlobalSecondaryIndexes?: Record<string, { CapacityUnits: number }> };
type Output = MetadataBearer & { ConsumedCapacity?: Consumed | Consumed[] };

/** A stack with the guard and the meter; `answer` stands for the client behind them. */
function client(answer: (input: Record<string, unknown>) => Promise<Output>) {
  const stack = constructStack<object, Output>();
  refuseScansOn(stack);
  meterOn(stack);
  /** what reached the client behind the middleware */
  const sent: Record<string, unknown>[] = [];
  const send = (commandName: string, input: Record<string, unknown>) =>
    stack.resolve(
      async (args: InitializeHandlerArguments<object>) => {
        sent.push(args.input as Record<string, unknown>);
        return { output: await answer(args.input as Record<string, unknown>), response: {} };
      },
      { commandName } as HandlerExecutionContext,
    )({ input });
  return { send, sent };
}

const answered = async (): Promise<Output> => ({ $metadata: {}, ConsumedCapacity: { CapacityUnits: 0.5 } });
const getItem = { TableName: 't', Key: { PK: 'x' } };

describe('the DynamoDB meter', () => {
  afterEach(() => stopMeasuring());

  it('records nothing and leaves the request unchanged when no measurement is running', async () => {
    stopMeasuring();
    const { send, sent } = client(answered);
    for (let i = 0; i < 100; i++) await send('GetItemCommand', { ...getItem });
    expect(sent.every((input) => input.ReturnConsumedCapacity === undefined)).toBe(true);
    expect(sent).toHaveLength(100);
    expect(measured().calls).toBe(0);
  });

  it('records each call and its capacity while a measurement runs, and forgets them when it stops', async () => {
    const { send, sent } = client(answered);
    startMeasuring({ capacity: true });
    await send('GetItemCommand', { ...getItem });
    await send('GetItemCommand', { ...getItem });
    expect(sent[0]?.ReturnConsumedCapacity).toBe('INDEXES');
    expect(measured()).toEqual({
      operations: [
        { command: 'GetItem', capacityUnits: 0.5 },
        { command: 'GetItem', capacityUnits: 0.5 },
      ],
      calls: 2,
      capacityUnits: 1,
    });
    stopMeasuring();
    await send('GetItemCommand', { ...getItem });
    expect(measured().calls).toBe(0);
  });

  it("splits a call's capacity by global secondary index, as DynamoDB reports it", async () => {
    const { send } = client(
      async (): Promise<Output> => ({
        $metadata: {},
        ConsumedCapacity: [
          {
            CapacityUnits: 6,
            GlobalSecondaryIndexes: { gsi1: { CapacityUnits: 2 }, gsi1keys: { CapacityUnits: 2 } },
          },
          { CapacityUnits: 1, GlobalSecondaryIndexes: { gsi1: { CapacityUnits: 0.5 } } },
        ],
      }),
    );
    startMeasuring({ capacity: true });
    await send('TransactWriteItemsCommand', { TransactItems: [] });
    expect(measured().operations).toEqual([
      { command: 'TransactWriteItems', capacityUnits: 7, indexUnits: { gsi1: 2.5, gsi1keys: 2 } },
    ]);
  });

  it('counts a refused call (e.g. a failed condition) as a call without capacity, and rethrows', async () => {
    const refused = new Error('The conditional request failed');
    const { send } = client(async (input) => {
      if (input.Item) throw refused;
      return answered();
    });
    startMeasuring({ capacity: true });
    await expect(send('PutItemCommand', { TableName: 't', Item: { PK: 'x' } })).rejects.toBe(refused);
    await send('GetItemCommand', { ...getItem });
    expect(measured()).toEqual({
      operations: [
        { command: 'PutItem', capacityUnits: 0, failed: true },
        { command: 'GetItem', capacityUnits: 0.5 },
      ],
      calls: 2,
      capacityUnits: 0.5,
    });
  });
});

describe('the Scan guard', () => {
  it('refuses a Scan before anything is sent or counted', async () => {
    const { send, sent } = client(answered);
    startMeasuring();
    await expect(send('ScanCommand', { TableName: 't' })).rejects.toBeInstanceOf(ScanForbiddenError);
    expect(sent).toEqual([]);
    expect(measured().calls).toBe(0);
    stopMeasuring();
  });
});
