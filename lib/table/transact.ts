/**
 * The one transaction runner. Every TransactWriteItems of the service goes through `transactWrite`:
 * each item carries a tag (what it is for the caller: 'book', 'limit', 'idempotency', ...); a
 * cancelled transaction comes back as per-item outcomes (`refused`: the tag, the reason code and,
 * when the item asked for it with ReturnValuesOnConditionCheckFailure, the current item), so no
 * caller decodes cancellation reasons itself. A transaction that lost only a race (or whose items
 * were throttled) is retried under CONFLICT_RETRY (lib/table/conflict-retry.ts) and then refused with
 * `Busy`; a retry after a send whose earlier attempt may have committed keeps that send's
 * ClientRequestToken, so a retry never applies a transaction twice.
 *
 * It imports no entity file: entities build the items, the runner only runs them.
 */
import { randomUUID } from 'node:crypto';
import type { CancellationReason } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { Busy } from '#lib/errors.ts';
import { db, TABLE } from './client.ts';
import { TransactWriteCommand, type TransactWriteCommandInput } from './commands.ts';
import { isTransactionCancelled, TRANSIENT_REASONS } from './conditions.ts';
import { CONFLICT_RETRY, type ConflictRetryPolicy, conflictRetryDelay } from './conflict-retry.ts';

/** One item of a TransactWriteItems (Put, Update, Delete or ConditionCheck). */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The transaction part that puts `item` (its key among its attributes), replacing what is there. */
export const putOp = (item: Record<string, unknown>): TransactItem => ({
  Put: { TableName: TABLE, Item: item },
});

/** An item with what it means to the caller. */
export interface Tagged<T extends string = string> {
  tag: T;
  item: TransactItem;
}

/** Tags an item. */
export const tag = <T extends string>(t: T, item: TransactItem): Tagged<T> => ({ tag: t, item });

/** Tags every item with the same tag (e.g. counter moves the caller does not tell apart). */
export const tagAll = <T extends string>(t: T, items: readonly TransactItem[]): Tagged<T>[] =>
  items.map((item) => ({ tag: t, item }));

/** Why one item made the transaction fail. */
export interface Refusal<T extends string = string> {
  tag: T;
  /** the position of the item in the transaction */
  index: number;
  /** `ConditionalCheckFailed`, `ValidationError`, ... (`TransactionConflict` only beside another refusal) */
  code: string;
  /** the item as stored, when the item asked for it (ReturnValuesOnConditionCheckFailure: ALL_OLD) */
  current: Record<string, unknown> | null;
}

export type TransactOutcome<T extends string = string> = { ok: true } | { ok: false; refused: Refusal<T>[] };

/** A transaction a condition refused, for callers that treat any refusal as an error. */
export class TransactionRefused<T extends string = string> extends Error {
  override name = 'TransactionRefused';
  constructor(readonly refused: Refusal<T>[]) {
    super(`transaction refused: ${refused.map((r) => `${r.tag}#${r.index}:${r.code}`).join(', ')}`);
  }
}

export interface TransactOptions {
  /**
   * Makes the transaction idempotent for 10 minutes (DynamoDB's ClientRequestToken). Without it the
   * runner makes its own, one per transaction (see `transactWrite` for when a retry keeps it).
   */
  clientRequestToken?: string;
  retry?: ConflictRetryPolicy;
}

/** Only lost races or throttling (no condition refused anything): worth another attempt. */
const transientOnly = (codes: string[]): boolean =>
  codes.some((c) => c !== 'None') && codes.every((c) => TRANSIENT_REASONS.has(c));

const isConflictException = (err: unknown): boolean =>
  (err as { name?: string } | null)?.name === 'TransactionConflictException';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How many attempts the SDK made for the send that failed (1 when it did not retry). */
const sdkAttempts = (err: unknown): number =>
  (err as { $metadata?: { attempts?: number } } | null)?.$metadata?.attempts ?? 1;

function refusals<T extends string>(
  items: readonly Tagged<T>[],
  reasons: CancellationReason[],
): Refusal<T>[] {
  return reasons.flatMap((reason, index) => {
    const code = reason.Code ?? 'None';
    const entry = items[index];
    if (code === 'None' || !entry) return [];
    return [{ tag: entry.tag, index, code, current: reason.Item ? unmarshall(reason.Item) : null }];
  });
}

/**
 * Runs the items as one TransactWriteItems. `{ ok: true }` when it was written; `{ ok: false,
 * refused }` when a condition (or another check) refused it, naming the items; `Busy` when it kept
 * losing races after the policy's retries. Other errors are thrown as they are.
 */
export async function transactWrite<T extends string>(
  items: readonly Tagged<T>[],
  options: TransactOptions = {},
): Promise<TransactOutcome<T>> {
  if (items.length === 0) return { ok: true };
  const policy = options.retry ?? CONFLICT_RETRY;
  let token = options.clientRequestToken ?? randomUUID();
  // whether a send with `token` may have committed (the SDK retried it): then it is kept for good
  let keep = options.clientRequestToken !== undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      await db.send(
        new TransactWriteCommand({ TransactItems: items.map((i) => i.item), ClientRequestToken: token }),
      );
      return { ok: true };
    } catch (err) {
      let raced = isConflictException(err);
      if (isTransactionCancelled(err)) {
        const reasons = err.CancellationReasons ?? [];
        raced = transientOnly(reasons.map((r) => r.Code ?? 'None'));
        if (!raced) return { ok: false, refused: refusals(items, reasons) };
      }
      if (!raced) throw err;
      const delay = conflictRetryDelay(policy, attempt);
      if (delay === null) throw new Busy();
      // A send the SDK retried may have committed on an earlier attempt whose answer was lost: every
      // later send keeps its token, so DynamoDB answers it as that committed transaction instead of
      // applying it again. Until then every send was cancelled for sure, and the retry gets a fresh
      // token (how DynamoDB answers a token whose one use was cancelled is not documented; DynamoDB
      // Local runs it again).
      if (sdkAttempts(err) > 1) keep = true;
      if (!keep) token = randomUUID();
      await sleep(delay);
    }
  }
}

/** The refusal of the item tagged `t`, if that item was refused. */
export const refusalOf = <T extends string>(outcome: TransactOutcome<T>, t: T): Refusal<T> | undefined =>
  outcome.ok ? undefined : outcome.refused.find((r) => r.tag === t);

/** Runs the items as one transaction; throws TransactionRefused when a condition refused it. */
export async function transactOrThrow<T extends string>(
  items: readonly Tagged<T>[],
  options: TransactOptions = {},
): Promise<void> {
  const outcome = await transactWrite(items, options);
  if (!outcome.ok) throw new TransactionRefused(outcome.refused);
}
