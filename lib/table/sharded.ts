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

import { db, TABLE } from './client.ts';
import { QueryCommand, type QueryCommandInput } from './commands.ts';
import type { Item, Page } from './page.ts';

export interface ShardedListing {
  /** the index the shards are partitions of (`gsi1`, `gsi4`), or none: the table's own key */
  index?: string;
  /** the prefix of the key attributes (`gsi1` for `gsi1pk`/`gsi1sk`) when not the index's name */
  keys?: string;
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
  /**
   * Bytes of one item of the index (a keys-only entry), when known: a skip then asks each shard
   * for as many entries as fill the 4 KB blocks it pays for anyway (placeInShards).
   */
  entryBytes?: number;
}

/** Items read per shard for a page of `limit`. */
export const perShardLimit = (limit: number, shards: number): number => Math.ceil(limit / shards) + 1;

/**
 * One merged page of `limit` items after `after` (none: from the start); `next` is the position
 * (the sort key) to resume after, or null when every shard is done.
 */
export async function readShards(
  listing: ShardedListing,
  limit: number,
  after?: string,
): Promise<Page<Item>> {
  const sk = `${keyPrefix(listing)}sk`;
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
    return { items, next: keyOf(items[items.length - 1] as Item) };
  }
  return { items, next: boundary };
}

const keyPrefix = (listing: ShardedListing): string => listing.keys ?? listing.index ?? '';

function shardQuery(
  listing: ShardedListing,
  pk: string,
  limit: number | undefined,
  after?: string,
  upTo?: { from: string; to: string },
): QueryCommandInput {
  const forward = listing.forward === true;
  const ix = keyPrefix(listing);
  const conditions = [`${ix}pk = :pk`];
  const values: Item = { ':pk': pk, ...listing.filter?.values };
  if (after !== undefined) {
    conditions.push(`${ix}sk ${forward ? '>' : '<'} :after`);
    values[':after'] = after;
  }
  if (upTo) {
    // both ends inclusive, in the key's own order
    const [lo, hi] = upTo.from < upTo.to ? [upTo.from, upTo.to] : [upTo.to, upTo.from];
    conditions.push(`${ix}sk BETWEEN :lo AND :hi`);
    values[':lo'] = lo;
    values[':hi'] = hi;
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
    ...(limit === undefined ? {} : { Limit: limit }),
  };
}

/** The most rounds one skip takes (each round reads more of the shards that may hide a position). */
const MAX_SKIP_ROUNDS = 6;

/** Keys-only entries that fit one 4 KB read unit block: reading fewer from a shard costs the same. */
const ENTRIES_PER_BLOCK = 32;
/** A Query's read units count the bytes it reads in blocks of this many. */
const BLOCK_BYTES = 4096;

/**
 * `n` entries, or more: as many as fill the 4 KB blocks that reading `n` entries of `entryBytes`
 * each is charged for (the rest of the last block is free). Without a size, `n`.
 */
export const fillBlocks = (n: number, entryBytes: number | undefined): number => {
  if (!entryBytes) return n;
  const blocks = Math.ceil((n * entryBytes) / BLOCK_BYTES);
  return Math.max(n, Math.floor((blocks * BLOCK_BYTES) / entryBytes));
};

/**
 * Entries read per shard in a round: the shard's share of `n` plus two standard deviations, and
 * never less than one 4 KB block's worth.
 */
export const skipShare = (n: number, shards: number): number =>
  shards === 1
    ? n
    : Math.max(ENTRIES_PER_BLOCK, Math.ceil(n / shards) + Math.ceil(2 * Math.sqrt(n / shards)));

/**
 * The sort keys at positions [from, from + count) of the merged order of the shards (by sort key),
 * read from a keys-only index so an entry costs about 100 bytes instead of a whole item.
 *
 * Round 1 reads each shard's share of from + count entries plus a margin of two standard
 * deviations (a book's shard is a hash of its id, so a shard's count among the first n entries is
 * binomial, n/S on average): S Queries at once. The merged order is known exactly up to the least
 * advanced shard that has more (the boundary). If that holds from + count entries, done; otherwise
 * (about one skip in six with 8 shards) only the shards whose position is still before the
 * candidate last entry read their part of what is missing, in one more round, rarely two.
 * Fewer than `count` entries (none) when the listing ends inside (before) the range.
 */
export async function placeInShards(listing: ShardedListing, from: number, count: number): Promise<string[]> {
  const want = from + count;
  const sk = `${keyPrefix(listing)}sk`;
  const forward = listing.forward === true;
  const ahead = (a: string, b: string) => (forward ? a < b : a > b);
  const read: Array<{ key: string; shard: number }> = [];
  // each shard's position (the last key it read, returned or filtered out) and whether it has more
  const shards = listing.pks.map(() => ({ after: undefined as string | undefined, more: true }));
  const fill = (n: number) => fillBlocks(n, listing.entryBytes);
  let asks = listing.pks.map((_, i) => ({ shard: i, limit: fill(skipShare(want, listing.pks.length)) }));
  for (let round = 0; round < MAX_SKIP_ROUNDS && asks.length > 0; round++) {
    const results = await Promise.all(
      asks.map((a) =>
        db.send(
          new QueryCommand(
            shardQuery(listing, listing.pks[a.shard] as string, a.limit, shards[a.shard]?.after),
          ),
        ),
      ),
    );
    results.forEach((r, i) => {
      const shard = (asks[i] as { shard: number }).shard;
      const state = shards[shard] as { after: string | undefined; more: boolean };
      for (const item of r.Items ?? []) read.push({ key: String(item[sk]), shard });
      state.more = r.LastEvaluatedKey !== undefined;
      if (r.LastEvaluatedKey) state.after = String(r.LastEvaluatedKey[sk]);
    });
    read.sort((a, b) => (ahead(a.key, b.key) ? -1 : 1));
    const open = shards.flatMap((s, i) => (s.more && s.after !== undefined ? [{ i, after: s.after }] : []));
    const boundary = open.reduce<string | null>(
      (b, o) => (b === null || ahead(o.after, b) ? o.after : b),
      null,
    );
    const complete = boundary === null ? read : read.filter((p) => !ahead(boundary, p.key));
    if (complete.length >= want || boundary === null) return complete.slice(from, want).map((p) => p.key);
    // The candidate last entry: a shard whose position is before it may hide entries ahead of it.
    const candidate = read[want - 1]?.key;
    const behind = open.filter((o) => candidate === undefined || ahead(o.after, candidate));
    const missing = want - complete.length;
    asks = behind.map((o) => ({
      shard: o.i,
      limit: fill(Math.max(ENTRIES_PER_BLOCK, skipShare(missing, behind.length))),
    }));
  }
  throw new Error(`placeInShards: no position after ${MAX_SKIP_ROUNDS} rounds`);
}

/**
 * The items from `from` to `to` (sort keys, both included) of the merged order: every shard's
 * items in that key range, one Query per shard, all at once. With the first and last entries of a
 * page from placeInShards this reads exactly the page's items (an item that left the listing since
 * is missing, one that joined inside the range shows: the indexes are eventually consistent), in
 * S Queries whatever the page's spread over the shards.
 */
export async function readRange(
  listing: ShardedListing,
  range: { from: string; to: string },
): Promise<Item[]> {
  const sk = `${keyPrefix(listing)}sk`;
  const forward = listing.forward === true;
  const results = await Promise.all(
    listing.pks.map((pk) => db.send(new QueryCommand(shardQuery(listing, pk, undefined, undefined, range)))),
  );
  const ahead = (a: string, b: string) => (forward ? a < b : a > b);
  return results.flatMap((r) => r.Items ?? []).sort((a, b) => (ahead(String(a[sk]), String(b[sk])) ? -1 : 1));
}
