import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';

export type Item = Record<string, NativeAttributeValue>;

/** One DynamoDB stream record, unmarshalled. */
export interface StreamChange {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  /** unique per record; use it (or the item keys + versions) to make effects idempotent */
  eventId: string;
  sequenceNumber: string;
  keys: Item;
  oldImage: Item | undefined;
  newImage: Item | undefined;
}

/** The consumer's invocation time left, for work that pages and must hand over before the timeout. */
export interface Budget {
  timeLeftMs: () => number;
}

/**
 * A reaction to table changes. It must be idempotent: records are delivered at least once
 * (deterministic keys, conditional writes). Throwing fails this record only; the stream retries it.
 */
export type ChangeProcessor = {
  name: string;
  /** cheap filter: does this change concern the processor? */
  wants: (change: StreamChange) => boolean;
  /** `budget`: the invocation's time left (absent outside Lambda, e.g. bulk loads: no limit) */
  apply: (change: StreamChange, budget?: Budget) => Promise<void>;
};
