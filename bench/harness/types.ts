/**
 * The shape of one benchmark case (bench/cases/*.ts). A case names a handler module, builds the
 * API Gateway events to send it, and declares its DynamoDB floor: the raw SDK calls the endpoint
 * must make, issued with a plain DocumentClient (no middlewares) in the same run.
 */

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EventInput } from '#tests/helpers/lambda.ts';
import type { Fixture } from './fixture.ts';

export type CaseKind = 'read' | 'write' | 'login';

/** What the harness hands a case when it prepares it for one table size. */
export interface CaseContext {
  fixture: Fixture;
  /** the table the handlers use (TABLE_NAME) */
  table: string;
  /** number of listed books the table was seeded with */
  size: number;
  smoke: boolean;
  /** how many endpoint and floor calls the harness will make with this run (for pools of data) */
  calls: number;
}

/**
 * One prepared run of a case at one table size. `i` counts every call the harness makes (warm-up,
 * measured and cost samples alike), so a write can use fresh data on every call.
 */
export interface CaseRun {
  /** untimed work before call `i` (e.g. put a book in the cart that call `i` will check out) */
  before?: (i: number) => Promise<void>;
  /** the event of endpoint call `i` */
  event: (i: number) => EventInput;
  /** the raw DynamoDB calls matching endpoint call `i`, issued with `client` */
  floor: (i: number, client: DynamoDBDocumentClient) => Promise<void>;
  /** untimed check of the endpoint's answer (throw to fail the run) */
  check?: (status: number, body: string) => void;
  /** for login: the share of the password check in the endpoint's time (a function timing one check) */
  hashing?: () => Promise<void>;
}

export interface BenchCase {
  name: string;
  kind: CaseKind;
  /** handler module, relative to the repository root, e.g. `functions/books/get-books-no-token.ts` */
  module: string;
  /** the expected success status */
  status: number;
  /** cost must stay flat as the table grows (same calls, capacity within 10 %) */
  flat?: boolean;
  /** p50 endpoint / p50 floor must stay at or below this (none: reported only) */
  maxRatio?: number;
  /** one line on what the floor is, for the report */
  floorDescription: string;
  /** seeds what the case needs before the books arrive (e.g. the reader's requests), once */
  beforeSeed?: (fixture: Fixture) => Promise<void>;
  prepare: (ctx: CaseContext) => Promise<CaseRun>;
}
