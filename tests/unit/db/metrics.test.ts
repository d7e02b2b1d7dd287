import { afterEach, describe, expect, it } from 'vitest';
import { measured, metered, startMeasuring, stopMeasuring } from '#lib/table/metrics.ts';

const answer = async () => ({ ConsumedCapacity: { CapacityUnits: 0.5 } });

async function call(): Promise<Record<string, unknown>> {
  const input: Record<string, unknown> = { TableName: 't', Key: { PK: 'x' } };
  await metered('GetItem', input, answer);
  return input;
}

describe('the DynamoDB meter', () => {
  afterEach(() => stopMeasuring());

  it('records nothing and leaves the request unchanged when no measurement is running', async () => {
    stopMeasuring();
    for (let i = 0; i < 100; i++) {
      const input = await call();
      expect(input.ReturnConsumedCapacity).toBeUndefined();
    }
    expect(measured().calls).toBe(0);
  });

  it('records each call and its capacity while a measurement runs, and forgets them when it stops', async () => {
    startMeasuring({ capacity: true });
    const input = await call();
    await call();
    expect(input.ReturnConsumedCapacity).toBe('TOTAL');
    expect(measured()).toEqual({
      operations: [
        { command: 'GetItem', capacityUnits: 0.5 },
        { command: 'GetItem', capacityUnits: 0.5 },
      ],
      calls: 2,
      capacityUnits: 1,
    });
    stopMeasuring();
    await call();
    expect(measured().calls).toBe(0);
  });

  it('counts a refused call (e.g. a failed condition) as a call without capacity, and rethrows', async () => {
    startMeasuring({ capacity: true });
    const refused = new Error('The conditional request failed');
    const fail = async () => {
      throw refused;
    };
    await expect(metered('PutItem', { TableName: 't' }, fail)).rejects.toBe(refused);
    await call();
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
