/**
 * Part 1 and 2 of the benchmark for one case at one table size:
 *  - latency: the handler invoked in-process with API Gateway events, and its floor (the raw SDK
 *    calls) issued right next to it, interleaved (alternating which goes first) so both share the
 *    machine's noise; warm-up calls first, then the measured ones;
 *  - cost: DynamoDB calls and consumed capacity units per request (ReturnConsumedCapacity via
 *    lib/table/metrics.ts), for the endpoint and for its floor.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { makeContext, makeEvent } from '#tests/helpers/lambda.ts';
import { type Summary, summarise } from './stats.ts';
import type { BenchCase, CaseRun } from './types.ts';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The handler exported by a case's module. */
export async function loadHandler(c: BenchCase): Promise<Handler> {
  const mod = (await import(pathToFileURL(path.join(ROOT, c.module)).href)) as { handler?: Handler };
  if (typeof mod.handler !== 'function') throw new Error(`${c.module} exports no handler`);
  return mod.handler;
}

export class CallCounter {
  private n = 0;
  next(): number {
    return this.n++;
  }

  /** The numbers of the next endpoint call and of its floor call, with their untimed set-up done. */
  async nextPair(run: CaseRun): Promise<{ iEndpoint: number; iFloor: number }> {
    const iEndpoint = this.next();
    const iFloor = this.next();
    if (run.before) {
      await run.before(iEndpoint);
      await run.before(iFloor);
    }
    return { iEndpoint, iFloor };
  }
}

/**
 * Invokes the handler as API Gateway would and checks its answer; answers how long the invocation
 * alone took. The event is built before the clock starts (API Gateway's work, not the function's;
 * the test helper's two ULIDs alone took ~0.1 ms) and the answer is checked after it stops.
 */
async function callEndpoint(c: BenchCase, run: CaseRun, handler: Handler, i: number): Promise<number> {
  const event = makeEvent(run.event(i));
  const context = makeContext();
  const started = performance.now();
  const res = await handler(event, context);
  const ms = performance.now() - started;
  const status = typeof res === 'string' ? 200 : (res.statusCode ?? 200);
  const body = typeof res === 'string' ? res : (res.body ?? '');
  if (status !== c.status) {
    throw new Error(`${c.name}: expected status ${c.status}, got ${status}: ${body.slice(0, 300)}`);
  }
  run.check?.(status, body);
  return ms;
}

export interface LatencyResult {
  endpoint: Summary;
  floor: Summary;
  /** p50 endpoint / p50 floor */
  ratio: number;
  /** login: p50 of one password check (Argon2id, the configured parameters), and its share of the endpoint p50 */
  hashing?: { p50: number; share: number };
}

export async function measureLatency(
  c: BenchCase,
  run: CaseRun,
  handler: Handler,
  floorClient: DynamoDBDocumentClient,
  counter: CallCounter,
  iterations: { warmup: number; measured: number },
): Promise<LatencyResult> {
  const { startMeasuring } = await import('#lib/table/metrics.ts');
  const endpointTimes: number[] = [];
  const floorTimes: number[] = [];
  const total = iterations.warmup + iterations.measured;
  for (let k = 0; k < total; k++) {
    const { iEndpoint, iFloor } = await counter.nextPair(run);
    startMeasuring(); // keeps the meter's list short; no capacity requested while timing
    const timeEndpoint = () => callEndpoint(c, run, handler, iEndpoint);
    const timeFloor = async () => {
      const t = performance.now();
      await run.floor(iFloor, floorClient);
      return performance.now() - t;
    };
    let te: number;
    let tf: number;
    if (k % 2 === 0) {
      te = await timeEndpoint();
      tf = await timeFloor();
    } else {
      tf = await timeFloor();
      te = await timeEndpoint();
    }
    if (k >= iterations.warmup) {
      endpointTimes.push(te);
      floorTimes.push(tf);
    }
  }
  const endpoint = summarise(endpointTimes);
  const floor = summarise(floorTimes);
  const result: LatencyResult = { endpoint, floor, ratio: endpoint.p50 / floor.p50 };
  if (run.hashing) {
    const times: number[] = [];
    for (let k = 0; k < Math.max(5, Math.min(50, iterations.measured)); k++) {
      const t = performance.now();
      await run.hashing();
      times.push(performance.now() - t);
    }
    const p50 = summarise(times).p50;
    result.hashing = { p50, share: p50 / endpoint.p50 };
  }
  return result;
}

export interface CostResult {
  calls: number;
  capacityUnits: number;
  /** the commands of one request, in order, e.g. ["GetItem", "Query"] */
  operations: string[];
  /** the capacity units of each of those commands (last sample), in the same order */
  operationUnits?: number[];
  floorCalls: number;
  floorCapacityUnits: number;
  floorOperations: string[];
  floorOperationUnits?: number[];
}

/** Calls and capacity per request, averaged over `samples` requests (and as many floor runs). */
export async function measureCost(
  c: BenchCase,
  run: CaseRun,
  handler: Handler,
  meteredFloorClient: DynamoDBDocumentClient,
  counter: CallCounter,
  samples: number,
): Promise<CostResult> {
  const { startMeasuring, measured } = await import('#lib/table/metrics.ts');
  let calls = 0;
  let cu = 0;
  let fCalls = 0;
  let fCu = 0;
  let operations: string[] = [];
  let floorOperations: string[] = [];
  let operationUnits: number[] = [];
  let floorOperationUnits: number[] = [];
  for (let k = 0; k < samples; k++) {
    const { iEndpoint, iFloor } = await counter.nextPair(run);
    startMeasuring({ capacity: true });
    await callEndpoint(c, run, handler, iEndpoint);
    const e = measured();
    startMeasuring({ capacity: true });
    await run.floor(iFloor, meteredFloorClient);
    const f = measured();
    startMeasuring();
    calls += e.calls;
    cu += e.capacityUnits;
    fCalls += f.calls;
    fCu += f.capacityUnits;
    operations = e.operations.map((o) => o.command);
    floorOperations = f.operations.map((o) => o.command);
    operationUnits = e.operations.map((o) => o.capacityUnits);
    floorOperationUnits = f.operations.map((o) => o.capacityUnits);
  }
  return {
    calls: calls / samples,
    capacityUnits: cu / samples,
    operations,
    operationUnits,
    floorCalls: fCalls / samples,
    floorCapacityUnits: fCu / samples,
    floorOperations,
    floorOperationUnits,
  };
}
