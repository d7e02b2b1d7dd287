/**
 * The price-ordered listings (sort=price-asc|price-desc), kept in step by the stream consumer like
 * the search index: a listed, visible book has an entry in every campus's price listing and in its
 * campus's (lib/db/keys.ts `priceListingKeys`), carrying the book's list fields so a page is one
 * merged read and nothing more. A change of a field a list shows rewrites its entries (a new price
 * moves them); a book that leaves the listing loses them. Keys are deterministic: a redelivered
 * record writes the same items.
 */
import { writeEntryChanges } from '#lib/db/books.ts';
import { type ItemKey, isBookKey, priceListingKeys } from '#lib/db/keys.ts';
import { listFieldsOf } from '#lib/db/list-fields.ts';
import type { ChangeProcessor, Item } from '#lib/streams/types.ts';

/** The entries a book image should have (none unless it is a listed, visible book). */
function entriesOf(image: Item | undefined): Map<string, ItemKey & Item> {
  const entries = new Map<string, ItemKey & Item>();
  const book = listFieldsOf(image);
  if (!book) return entries;
  for (const key of priceListingKeys(book)) {
    entries.set(`${key.pk}\n${key.sk}`, { ...book, ...key, type: 'priceEntry' });
  }
  return entries;
}

export const priceIndexProcessor: ChangeProcessor = {
  name: 'priceIndex',
  wants: (c) => isBookKey(c.keys),
  apply: async (c) => writeEntryChanges(entriesOf(c.oldImage), entriesOf(c.newImage)),
};
