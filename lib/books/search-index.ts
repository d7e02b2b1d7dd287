/**
 * The search index of listed books, kept in step by the stream consumer (so a checkout's
 * transaction never grows with a title's length). A book in status 0 has one entry per term
 * (title word prefixes, course code, ISBN-13) at `<date>#<id>`; when it leaves status 0, changes
 * a searched field or its date, or is removed, the entries that no longer hold are deleted and the
 * new ones put. Keys are deterministic, so a redelivered record changes nothing twice.
 */
import { writeSearchEntries } from '#lib/db/books.ts';
import {
  ALL_CAMPUSES,
  courseTerm,
  type ItemKey,
  isBookKey,
  isbnTerm,
  searchEntryKey,
  titleTerm,
} from '#lib/db/keys.ts';
import { type BookRecord, BookStatus } from '#lib/db/records.ts';
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

type Entry = ItemKey & { bookId: string };

/** The index entries an item image should have (none unless it is a listed book). */
function entriesOf(image: Item | undefined): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  // a book hidden by reports leaves the index until it is resolved
  if (image?.type !== 'book' || image.status !== BookStatus.Listed || image.hidden === true) return entries;
  const book = image as unknown as BookRecord;
  // every campus's partition of each term, and the book's campus's (none before the migration)
  const campuses = [ALL_CAMPUSES, ...(book.campus ? [book.campus] : [])];
  for (const term of searchTermsOf(book)) {
    for (const campus of campuses) {
      const key = searchEntryKey(term, book.date, book.id, campus);
      entries.set(`${key.pk}\n${key.sk}`, { ...key, bookId: book.id });
    }
  }
  return entries;
}

export const searchIndexProcessor: ChangeProcessor = {
  name: 'searchIndex',
  wants: (c) => isBookKey(c.keys),
  apply: async (c) => {
    const before = entriesOf(c.oldImage);
    const after = entriesOf(c.newImage);
    const puts = [...after].filter(([k]) => !before.has(k)).map(([, e]) => e);
    const deletes = [...before].filter(([k]) => !after.has(k)).map(([, e]) => ({ pk: e.pk, sk: e.sk }));
    if (puts.length + deletes.length > 0) await writeSearchEntries(puts, deletes);
  },
};
