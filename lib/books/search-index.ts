/**
 * The search index of listed books, kept in step by the stream consumer (so a checkout's
 * transaction never grows with a title's length). A listed, visible book has one entry per term
 * (title and author word prefixes, course code, ISBN-13) and campus (every campus's and its own)
 * at `<date>#<id>`, carrying the book's list fields (lib/db/list-fields.ts) and, on gsi4, the same
 * entry by price: a search page is one Query per term, in either order, and no per-book read.
 * When the book leaves the listing, is hidden or removed, its entries are deleted; when a field a
 * list shows changes (price, condition, comments, photos), they are rewritten; a change no list
 * shows writes nothing. Keys are deterministic, so a redelivered record changes nothing twice.
 */
import { writeEntries } from '#lib/db/books.ts';
import {
  ALL_CAMPUSES,
  courseTerm,
  type ItemKey,
  isBookKey,
  isbnTerm,
  searchEntryKey,
  searchPriceIndex,
  titleTerm,
} from '#lib/db/keys.ts';
import { entryChanges, listFieldsOf } from '#lib/db/list-fields.ts';
import type { BookRecord } from '#lib/db/records.ts';
import type { ChangeProcessor, Item } from '#lib/streams/types.ts';
import { searchedText } from './search-terms.ts';
import { titlePrefixes } from './text.ts';

/** Every index term of a book (the author's words are searched like the title's). */
export function searchTermsOf(book: Pick<BookRecord, 'name' | 'author' | 'courseNorm' | 'ISBN'>): string[] {
  return [
    ...new Set(titlePrefixes(searchedText(book)).map(titleTerm)),
    ...(book.courseNorm ? [courseTerm(book.courseNorm)] : []),
    ...(book.ISBN ? [isbnTerm(book.ISBN)] : []),
  ];
}

export type SearchEntry = ItemKey & Item & { bookId: string };

/** The index entries a book image should have, by `pk\nsk` (none unless it is a listed, visible book). */
export function searchEntriesOf(image: Item | undefined | null): Map<string, SearchEntry> {
  const entries = new Map<string, SearchEntry>();
  const book = listFieldsOf(image);
  if (!book) return entries;
  // every campus's partition of each term, and the book's campus's (when it has one)
  const campuses = [ALL_CAMPUSES, ...(book.campus ? [book.campus] : [])];
  for (const term of searchTermsOf(book)) {
    for (const campus of campuses) {
      const key = searchEntryKey(term, book.date, book.id, campus);
      entries.set(`${key.pk}\n${key.sk}`, {
        ...book,
        ...key,
        ...searchPriceIndex(term, campus, book),
        type: 'searchEntry',
        bookId: book.id,
      });
    }
  }
  return entries;
}

export const searchIndexProcessor: ChangeProcessor = {
  name: 'searchIndex',
  wants: (c) => isBookKey(c.keys),
  apply: async (c) => {
    const { puts, deletes } = entryChanges(searchEntriesOf(c.oldImage), searchEntriesOf(c.newImage));
    if (puts.length + deletes.length > 0) await writeEntries(puts, deletes);
  },
};
