/**
 * The typo vocabulary (keys.ts `typoVariantKey`): which indexed title and author words have a
 * given deletion variant. Written by the search-index consumer, read by a search's typo tier with
 * one BatchGetItem (lib/books/typo.ts explains the scheme).
 */
import { batchGet } from '#lib/table/batch.ts';
import { db, TABLE } from '#lib/table/client.ts';
import { UpdateCommand } from '#lib/table/commands.ts';
import { typoVariantKey } from './keys.ts';

const WRITES_AT_ONCE = 8;

/**
 * Adds words to the sets of their variants (`variant -> words`): one UpdateItem ADD per variant,
 * 8 at once. A set only grows, so a redelivered record writes the same sets again.
 */
export async function addTypoWords(byVariant: Map<string, string[]>): Promise<void> {
  const all = [...byVariant];
  // a few at a time: a long title has dozens of variants, and a batch of records many titles
  for (let i = 0; i < all.length; i += WRITES_AT_ONCE) {
    await Promise.all(
      all.slice(i, i + WRITES_AT_ONCE).map(([variant, words]) =>
        db.send(
          new UpdateCommand({
            TableName: TABLE,
            Key: typoVariantKey(variant),
            UpdateExpression: 'SET #type = :type ADD typoWords :words',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: { ':type': 'typoVariant', ':words': new Set(words) },
          }),
        ),
      ),
    );
  }
}

/** The indexed words that have any of these variants (one BatchGetItem, only the word sets). */
export async function typoWordsOf(variants: string[]): Promise<string[]> {
  const items = await batchGet<{ typoWords?: Set<string> }>(variants.map(typoVariantKey), {
    projection: 'typoWords',
  });
  return [...new Set(items.flatMap((i) => [...(i.typoWords ?? [])]))];
}
