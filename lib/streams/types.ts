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

/**
 * A reaction to table changes. It must be idempotent: records are delivered at least once
 * (deterministic keys, conditional writes). Throwing fails this record only; the stream retries it.
 */
export type ChangeProcessor = {
  name: string;
  /** cheap filter: does this change concern the processor? */
  wants: (change: StreamChange) => boolean;
  apply: (change: StreamChange) => Promise<void>;
};
