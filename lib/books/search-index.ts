/**
 * The search index of listed books, kept in step by the stream consumer (so a checkout's
 * transaction never grows with a title's length). A listed, visible book has one entry per term
 * (title and author word prefixes, course code, its department and number, ISBN-13) and campus (every campus's and its own)
 * at `<date>#<id>`, carrying the book's list fields (lib/db/list-fields.ts) and, on gsi4, the same
 * entry by price: a search page is one Query per term, in either order, and no per-book read.
 * When the book leaves the listing, is hidden or removed, its entries are deleted; when a field a
 * list shows changes (price, condition, comments, photos), they are rewritten; a change no list
 * shows writes nothing. Keys are deterministic, so a redelivered record changes nothing twice.
 * A book's new title and author words of 5+ letters also join the typo vocabulary (lib/books/typo.ts,
 * lib/db/typo-vocabulary.ts): one UpdateItem per deletion variant, only for words it did not have.
 */
import { writeEntryChanges } from '#lib/db/books.ts';
import {
  ALL_CAMPUSES,
  courseTerm,
  deptTerm,
  type ItemKey,
  isBookKey,
  isbnTerm,
  numberTerm,
  searchEntryKey,
  searchPriceIndex,
  titleTerm,
} from '#lib/db/keys.ts';
import { listFieldsOf } from '#lib/db/list-fields.ts';
import type { BookRecord } from '#lib/db/records.ts';
import { addTypoWords } from '#lib/db/typo-vocabulary.ts';
import type { ChangeProcessor, Item } from '#lib/streams/types.ts';
import { searchedText } from './search-terms.ts';
import { courseParts, titlePrefixes, words } from './text.ts';
import { deletionVariants, typoEligible } from './typo.ts';

/**
 * Every index term of a book (the author's words are searched like the title's): its title and
 * author word prefixes, its course, the course's department and number, and its ISBN.
 */
export function searchTermsOf(book: Pick<BookRecord, 'name' | 'author' | 'courseNorm' | 'ISBN'>): string[] {
  const parts = book.courseNorm ? courseParts(book.courseNorm) : null;
  return [
    ...new Set(titlePrefixes(searchedText(book)).map(titleTerm)),
    ...(book.courseNorm ? [courseTerm(book.courseNorm)] : []),
    ...(parts ? [deptTerm(parts.dept), numberTerm(parts.number)] : []),
    ...(book.ISBN ? [isbnTerm(book.ISBN)] : []),
  ];
}

/** The title and author words of a listed book that get typo tolerance (none for another image). */
export function typoWordsOf(image: Item | undefined | null): Set<string> {
  const book = listFieldsOf(image);
  return new Set(book ? words(searchedText(book)).filter(typoEligible) : []);
}

/**
 * The vocabulary additions a change needs: the variants of the words the new image has and the
 * old one had not (a price change adds nothing), `variant -> words`.
 */
export function typoAdditions(oldImage: Item | undefined | null, newImage: Item | undefined | null) {
  const had = typoWordsOf(oldImage);
  const byVariant = new Map<string, string[]>();
  for (const w of typoWordsOf(newImage)) {
    if (had.has(w)) continue;
    for (const v of deletionVariants(w)) byVariant.set(v, [...(byVariant.get(v) ?? []), w]);
  }
  return byVariant;
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
    await writeEntryChanges(searchEntriesOf(c.oldImage), searchEntriesOf(c.newImage));
    // words only join the vocabulary: a book leaving the listing removes none (its entries are gone)
    const additions = typoAdditions(c.oldImage, c.newImage);
    if (additions.size > 0) await addTypoWords(additions);
  },
};
