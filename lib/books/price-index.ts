/**
 * The price-ordered listings (sort=price-asc|price-desc), kept in step by the stream consumer like
 * the search index: a listed, visible book has an entry in every campus's price listing and in its
 * campus's (lib/db/keys.ts `priceListingKeys`), carrying the book's fields so a page is one merged
 * read and nothing more. Every change of a listed book rewrites its entries (a new price moves
 * them); a book that leaves the listing loses them. Keys are deterministic: a redelivered record
 * writes the same items.
 */
import { writePriceEntries } from '#lib/db/books.ts';
import { isBookKey, priceListingKeys } from '#lib/db/keys.ts';
import { stripKeys } from '#lib/db/page.ts';
import { type BookRecord, BookStatus, upgradeBook } from '#lib/db/records.ts';
import type { ChangeProcessor, Item } from '#lib/streams/types.ts';

/** The entries a book image should have (none unless it is a listed, visible book). */
function entriesOf(image: Item | undefined): Map<string, Item> {
  const entries = new Map<string, Item>();
  if (image?.type !== 'book' || image.status !== BookStatus.Listed || image.hidden === true) return entries;
  const book = upgradeBook(stripKeys<Item>(image)) as unknown as BookRecord;
  const { photoSlots: _slots, photoVersion: _version, ...fields } = book;
  for (const key of priceListingKeys(book)) {
    entries.set(`${key.pk}\n${key.sk}`, { ...fields, ...key, type: 'priceEntry' });
  }
  return entries;
}

export const priceIndexProcessor: ChangeProcessor = {
  name: 'priceIndex',
  wants: (c) => isBookKey(c.keys),
  apply: async (c) => {
    const before = entriesOf(c.oldImage);
    const after = entriesOf(c.newImage);
    const deletes = [...before]
      .filter(([k]) => !after.has(k))
      .map(([, e]) => ({ pk: String(e.pk), sk: String(e.sk) }));
    const puts = [...after.values()];
    if (puts.length + deletes.length > 0) await writePriceEntries(puts, deletes);
  },
};
