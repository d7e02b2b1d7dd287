/**
 * Reads of a write-sharded listing (lib/db/keys.ts `listingPartitions`): the S shard partitions of
 * one index are queried in parallel, each for ceil(limit / S) + 1 items after the page's position,
 * and merged by sort key. A page never skips an item: it only takes items up to the least advanced
 * position among the shards that have more (the "boundary"), so it may be shorter than `limit`
 * while `last` is set. A page reads at most S x (ceil(limit / S) + 1) items, whatever the number of
 * items in the listing, in S Queries made at once.
 *
 * The position is a single sort key: every shard resumes with `sk < position` (newest first) or
 * `sk > position` (oldest first) in its key condition, so a cursor stays one key long.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.ts';
import type { Item } from './page.ts';

export interface ShardedListing {
  /** the index the shards are partitions of (`gsi1`, `gsi4`), or none: the table's own key */
  index?: string;
  /** the shards' partition key values */
  pks: string[];
  /** oldest first (ascending sort key) instead of newest first */
  forward?: boolean;
  /** a filter applied to each shard's Query (it does not change what is read) */
  filter?: { expression: string; names?: Record<string, string>; values?: Item };
  /** only these attributes (e.g. the sort key, to find a position cheaply) */
  projection?: string;
  /**
   * Items read per partition (default ceil(limit / S) + 1, for shards that split one listing).
   * Partitions that overlap (a search's terms) read `limit + 1` each.
   */
  perShard?: number;
  /** the partitions may hold the same item (same sort key): it is taken once */
  distinct?: boolean;
}

export interface ShardedPage {
  items: Item[];
  /** the position to resume after (the sort key), or null when every shard is done */
  last: string | null;
}

/** Items read per shard for a page of `limit`. */
export const perShardLimit = (limit: number, shards: number): number => Math.ceil(limit / shards) + 1;

/** One merged page of `limit` items after `after` (none: from the start). */
export async function readShards(
  listing: ShardedListing,
  limit: number,
  after?: string,
): Promise<ShardedPage> {
  const sk = `${listing.index ?? ''}sk`;
  const forward = listing.forward === true;
  const perShard = listing.perShard ?? perShardLimit(limit, listing.pks.length);
  const results = await Promise.all(
    listing.pks.map((pk) => db.send(new QueryCommand(shardQuery(listing, pk, perShard, after)))),
  );
  const keyOf = (i: Item) => String(i[sk]);
  // ahead(a, b): a comes before b in the listing's order
  const ahead = (a: string, b: string) => (forward ? a < b : a > b);
  const lasts = results.flatMap((r) => (r.LastEvaluatedKey ? [String(r.LastEvaluatedKey[sk])] : []));
  // The least advanced shard that has more: everything up to its last read item is complete.
  const boundary = lasts.reduce<string | null>((b, l) => (b === null || ahead(l, b) ? l : b), null);
  const safe = results
    .flatMap((r) => r.Items ?? [])
    .filter((i) => boundary === null || !ahead(boundary, keyOf(i)))
    .sort((a, b) => (ahead(keyOf(a), keyOf(b)) ? -1 : 1))
    .filter((i, n, all) => !listing.distinct || n === 0 || keyOf(all[n - 1] as Item) !== keyOf(i));
  const items = safe.slice(0, limit);
  if (items.length === limit && (safe.length > limit || boundary !== null)) {
    return { items, last: keyOf(items[items.length - 1] as Item) };
  }
  return { items, last: boundary };
}

function shardQuery(listing: ShardedListing, pk: string, limit: number, after?: string): QueryCommandInput {
  const forward = listing.forward === true;
  const ix = listing.index ?? '';
  const conditions = [`${ix}pk = :pk`];
  const values: Item = { ':pk': pk, ...listing.filter?.values };
  if (after !== undefined) {
    conditions.push(`${ix}sk ${forward ? '>' : '<'} :after`);
    values[':after'] = after;
  }
  return {
    TableName: TABLE,
    ...(listing.index ? { IndexName: listing.index } : {}),
    KeyConditionExpression: conditions.join(' AND '),
    ExpressionAttributeValues: values,
    ...(listing.filter ? { FilterExpression: listing.filter.expression } : {}),
    ...(listing.filter?.names ? { ExpressionAttributeNames: listing.filter.names } : {}),
    ...(listing.projection ? { ProjectionExpression: listing.projection } : {}),
    ScanIndexForward: forward,
    Limit: limit,
  };
}
