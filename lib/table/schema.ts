/**
 * The table's physical shape, as the engine needs it: every item has a `pk`/`sk` key, and the
 * global secondary indexes by name. Which strings go into those keys is the entities' business
 * (lib/db/keys.ts), never the engine's.
 */

export const INDEX = {
  gsi1: 'gsi1',
  gsi2: 'gsi2',
  gsi3: 'gsi3',
  gsi4: 'gsi4',
  /** gsi1's keys (and `hidden`) only: skipping through the listing of every campus (issue 14) */
  gsi1keys: 'gsi1keys',
  /** gsi4's keys (and `hidden`) only: skipping through one campus's listing (issue 14) */
  gsi4keys: 'gsi4keys',
} as const;

export interface ItemKey {
  pk: string;
  sk: string;
}
