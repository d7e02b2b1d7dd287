/**
 * What a list shows of a book, copied onto the entries the stream consumer keeps for it (search
 * entries, price entries, matches), so a page of them is one Query and no per-book read
 * (docs/browsing.md, "List fields on entries"). The consumer rewrites an entry when these fields
 * change and removes it when the book leaves the listing or is hidden.
 */
import { isDeepStrictEqual } from 'node:util';
import { type Item, stripKeys } from '#lib/table/page.ts';
import type { ItemKey } from './keys.ts';
import { type BookRecord, BookStatus } from './records.ts';

/** Stored attributes of a book that no list shows (its working state). */
const NOT_LISTED = [
  'photoSlots',
  'photoVersion',
  'reportCount',
  'hidden',
  'feeCents',
  'buyerId',
  'boughtAt',
  'orderId',
] as const;

/**
 * The list fields of a book image (a stream image or a stored item, keys or not); null unless it is a listed book that reports have not hidden.
 */
export function listFieldsOf(image: Item | undefined | null): BookRecord | null {
  if (image?.type !== 'book' || image.status !== BookStatus.Listed || image.hidden === true) return null;
  const book: Item = stripKeys<Item>(image);
  for (const a of NOT_LISTED) delete book[a];
  return book as BookRecord;
}

/** Whether two books show the same in a list (so their entries need no rewrite). */
export const sameListFields = (a: BookRecord | null, b: BookRecord | null): boolean =>
  isDeepStrictEqual(a, b);

/**
 * What turns the entries `before` (by `pk\nsk`) into `after`: every entry that is new or whose
 * content changed is put, every one that no longer holds is deleted. An unchanged entry costs
 * nothing, so a change no list shows (a report count) writes nothing.
 */
export function entryChanges<E extends Item & ItemKey>(
  before: Map<string, E>,
  after: Map<string, E>,
): { puts: E[]; deletes: ItemKey[] } {
  const puts = [...after].filter(([k, e]) => !isDeepStrictEqual(before.get(k), e)).map(([, e]) => e);
  const deletes = [...before].filter(([k]) => !after.has(k)).map(([, e]) => ({ pk: e.pk, sk: e.sk }));
  return { puts, deletes };
}

/** Attributes whose stored values a match's book check compares (the ones a listed book can change). */
const GUARDED = [
  'name',
  'author',
  'edition',
  'course',
  'ISBN',
  'priceCents',
  'condition',
  'comments',
  'coverUrl',
  'photoVersion',
];

/**
 * A condition that holds only while the book still has the values of `raw` (the stored item the
 * list fields were taken from) in `attributes` (by default every one a listed book can change): a
 * match written with those fields cannot land after a change the consumer has already copied onto
 * the book's other matches, and a checkout cannot buy a book changed since it was read. An
 * attribute `raw` has not, or has as null, must still be absent or null. Names and values are
 * `#<prefix><i>` and `:<prefix><i>`, so the condition joins another one's without a clash.
 */
export function sameValuesCondition(
  raw: Item,
  attributes: readonly string[] = GUARDED,
  prefix = 'g',
): {
  expression: string;
  names: Record<string, string>;
  values: Item;
} {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Item = {};
  attributes.forEach((a, i) => {
    const v = raw[a];
    const name = `#${prefix}${i}`;
    const value = `:${prefix}${i}`;
    names[name] = a;
    if (v === undefined || v === null) {
      values[value] = 'NULL';
      parts.push(`(attribute_not_exists(${name}) OR attribute_type(${name}, ${value}))`);
    } else if (typeof v === 'string' || typeof v === 'number') {
      values[value] = v;
      parts.push(`${name} = ${value}`);
    } else {
      delete names[name];
    }
  });
  return { expression: parts.join(' AND '), names, values };
}
