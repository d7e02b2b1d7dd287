/**
 * Listings: post, change, unlist, remove and re-list books; the public listing, an owner's posts
 * and search. Every request is a fixed, small number of key reads (see README, "Key schema").
 */
import { ulid } from 'ulid';
import {
  BookWriteRefused,
  getBook,
  inCartIds,
  insertBook,
  type ListingFilters,
  ListingLimitReached,
  listedBooks,
  listedBooksAt,
  listPostsOf,
  MAX_LISTED_BOOKS,
  moveBookStatus,
  removeBook,
  searchPage,
  searchRelevancePage,
  updateBookDetails,
} from '#lib/db/books.ts';
import { ALL_CAMPUSES, titleTerm } from '#lib/db/keys.ts';
import { type BookRecord, BookStatus } from '#lib/db/records.ts';
import { typoWordsOf } from '#lib/db/typo-vocabulary.ts';
import { getUserListingInfo } from '#lib/db/users.ts';
import { Conflict, NotFound } from '#lib/errors.ts';
import { countEvent } from '#lib/metrics.ts';
import type { Page } from '#lib/table/page.ts';
import type { ConditionGrade } from '#lib/values/condition.ts';
import {
  DEFAULT_PAGE,
  type PostBookInput,
  type SearchSort,
  type Sort,
  type UpdateBookInput,
} from './inputs.ts';
import { type Book, pendingPhotosOf, toApiBook } from './schemas.ts';
import { planSearch, Rank, type SearchPlan } from './search-terms.ts';
import { indexPrefix, normaliseCourse, words } from './text.ts';
import { deletionVariants, withinOneEdit } from './typo.ts';

const notFound = () => new NotFound('No such book.', 'BOOK_NOT_FOUND');
const wrongStatus = (status: number, action: string) =>
  new Conflict(`A book in status ${status} cannot be ${action}.`, undefined, 'INVALID_STATUS');

/** The caller's own book, or 404 (also for another user's book: its existence is not revealed). */
async function ownBook(userId: string, bookId: string): Promise<BookRecord> {
  const book = await getBook(bookId);
  if (!book || book.ownerId !== userId) throw notFound();
  return book;
}

/** 409: the owner already has the most listed books allowed. */
const listingLimit = () =>
  new Conflict(
    `You can have at most ${MAX_LISTED_BOOKS} books listed at once. Unlist or remove one first.`,
    undefined,
    'LISTING_LIMIT',
  );

/** A refused conditional write -> 404 if the book is gone or not the caller's, else 409. */
function refused(err: unknown, userId: string, action: string): never {
  if (err instanceof ListingLimitReached) throw listingLimit();
  if (err instanceof BookWriteRefused) {
    if (!err.current || err.current.ownerId !== userId) throw notFound();
    throw wrongStatus(err.current.status, action);
  }
  throw err;
}

export async function postBook(userId: string, input: PostBookInput): Promise<Book> {
  const owner = await getUserListingInfo(userId);
  if (!owner) throw notFound();
  const book: BookRecord = {
    type: 'book',
    id: ulid(),
    name: input.name,
    edition: input.edition,
    course: input.course,
    courseNorm: normaliseCourse(input.course),
    priceCents: input.priceCents,
    condition: input.condition,
    ...(input.author ? { author: input.author } : {}),
    comments: input.comments,
    ISBN: input.ISBN,
    ...(input.coverUrl ? { coverUrl: input.coverUrl } : {}),
    status: BookStatus.Listed,
    date: new Date().toISOString(),
    ownerId: userId,
    ownerFirstName: owner.firstName,
    campus: owner.campus,
  };
  try {
    await insertBook(book);
  } catch (err) {
    if (err instanceof ListingLimitReached) throw listingLimit();
    throw err;
  }
  countEvent('BooksPosted');
  return toApiBook(book);
}

export async function updateBook(userId: string, input: UpdateBookInput): Promise<Book> {
  try {
    const { bookId, ...fields } = input;
    // the course's search key moves with it (the search index and the matcher read courseNorm)
    const course = fields.course === undefined ? {} : { courseNorm: normaliseCourse(fields.course) };
    // the looked-up cover was the old ISBN's: an ISBN sent takes it off
    const cover = fields.ISBN === undefined ? {} : { coverUrl: null };
    return toApiBook(await updateBookDetails(bookId, userId, { ...fields, ...course, ...cover }));
  } catch (err) {
    refused(err, userId, 'changed');
  }
}

export interface RemovedBook {
  id: string;
  removed: true;
}

/** Unlists (0 -> 5) or, with `permanent`, removes (from 0 or 5) one of the caller's books. */
export async function deleteBook(
  userId: string,
  bookId: string,
  permanent: boolean,
): Promise<Book | RemovedBook> {
  const book = await ownBook(userId, bookId);
  try {
    if (permanent) {
      if (book.status !== BookStatus.Listed && book.status !== BookStatus.Unlisted)
        throw wrongStatus(book.status, 'removed');
      await removeBook(book, userId);
      return { id: book.id, removed: true };
    }
    if (book.status !== BookStatus.Listed) throw wrongStatus(book.status, 'unlisted');
    return toApiBook(await moveBookStatus(book, userId, BookStatus.Unlisted));
  } catch (err) {
    refused(err, userId, permanent ? 'removed' : 'unlisted');
  }
}

/** Re-lists one of the caller's unlisted books (5 -> 0) with a fresh date. */
export async function reactivateBook(userId: string, bookId: string): Promise<Book> {
  const book = await ownBook(userId, bookId);
  if (book.status !== BookStatus.Unlisted) throw wrongStatus(book.status, 'reactivated');
  try {
    return toApiBook(await moveBookStatus(book, userId, BookStatus.Listed, new Date().toISOString()));
  } catch (err) {
    refused(err, userId, 'reactivated');
  }
}

/**
 * One book (getBook): a listed book to anyone (with a caller, with `inCart`) unless reports hid it
 * (then only to its owner and admins); any other status only to its owner, its buyer or an admin,
 * with the buyer shown; otherwise 404, so a stranger
 * cannot tell a sold book from one that never existed. Its owner also sees the photos whose upload
 * is not yet checked (`pendingPhotos`), so the web app stops waiting for one the check refused.
 */
export async function viewBook(
  caller: { userId: string; permissionType: number } | null,
  bookId: string,
): Promise<Book> {
  const book = await getBook(bookId);
  if (!book) throw notFound();
  const owner = caller !== null && book.ownerId === caller.userId;
  const ownerOrAdmin = owner || (caller !== null && caller.permissionType >= 1);
  let view: Book;
  if (book.status === BookStatus.Listed) {
    // hidden by reports: only its owner and admins see it until an admin resolves the reports
    if (book.hidden && !ownerOrAdmin) throw notFound();
    [view] = (await withInCart(caller?.userId ?? null, [book])) as [Book];
  } else {
    if (!ownerOrAdmin && book.buyerId !== caller?.userId) throw notFound();
    view = toApiBook(book, { showBuyer: true });
  }
  return owner ? { ...view, pendingPhotos: pendingPhotosOf(book) } : view;
}

/** The caller's listed and unlisted books, newest first, a page at a time. */
export async function getUsersPosts(
  userId: string,
  options: { limit?: number; cursor?: string },
): Promise<Page<Book>> {
  const page = await listPostsOf(userId, options.limit ?? DEFAULT_PAGE, options.cursor);
  return { items: page.items.map((b) => toApiBook(b)), next: page.next };
}

/** Who is browsing: with a token, the caller's id (their own books are left out) and campus. */
export type Browser = { userId: string; campus: string; blockedIds?: readonly string[] } | null;

/** Whose books a browser does not see in listings and searches: their own and those of whom they blocked. */
const hiddenOwners = (browser: Browser): string[] =>
  browser ? [browser.userId, ...(browser.blockedIds ?? [])] : [];

/** What a page of books is narrowed to and read in; all of it is bound into the page's cursor. */
export interface BrowseOptions {
  limit?: number;
  cursor?: string;
  campus?: string;
  condition?: ConditionGrade[];
  minPrice?: number;
  maxPrice?: number;
  sort?: Sort | SearchSort;
}

/** The campus a page shows: the one asked for, else the caller's, else every campus. */
export const campusFor = (browser: Browser, campus: string | undefined): string =>
  campus ?? browser?.campus ?? ALL_CAMPUSES;

const filtersOf = (o: BrowseOptions): ListingFilters => ({
  ...(o.condition ? { conditions: o.condition } : {}),
  ...(o.minPrice !== undefined ? { minCents: o.minPrice } : {}),
  ...(o.maxPrice !== undefined ? { maxCents: o.maxPrice } : {}),
});

/**
 * The MAC scope of a page's cursor: the list, the campus, the filters and the sort, so a cursor
 * reused with any other of them is a 400 instead of a page of another listing.
 */
const browseScope = (list: string, campus: string, o: BrowseOptions): string =>
  [list, campus, (o.condition ?? []).join(','), o.minPrice ?? '', o.maxPrice ?? '', o.sort ?? 'newest'].join(
    '|',
  );

/** Listed books of a campus (or all), newest first; with a caller, their own left out and `inCart` on each. */
export async function getAllBooks(browser: Browser, options: BrowseOptions): Promise<Page<Book>> {
  const campus = campusFor(browser, options.campus);
  const byPrice = priceOrder(options.sort);
  const page = await listedBooks({
    campus,
    limit: options.limit ?? DEFAULT_PAGE,
    ...(options.cursor ? { cursor: options.cursor } : {}),
    scope: browseScope('listing', campus, options),
    excludeOwners: hiddenOwners(browser),
    filters: filtersOf(options),
    ...(byPrice ? { byPrice } : {}),
  });
  return { items: await withInCart(browser?.userId ?? null, page.items), next: page.next };
}

/**
 * Listed books of a campus (default: all), newest first, `limit` after the first `skip`: the page's
 * positions from the keys-only index, then its books (lib/db/books.ts `listedBooksAt`), so a page
 * is always full while books remain and `skip` 2,000 costs about 35 read units, not 300.
 */
export async function getBooksNoToken(limit: number, skip: number, campus = ALL_CAMPUSES): Promise<Book[]> {
  return (await listedBooksAt(campus, skip, limit)).map((b) => toApiBook(b));
}

/** The direction of a price sort, or undefined for newest first. */
const priceOrder = (sort: Sort | SearchSort | undefined): 'asc' | 'desc' | undefined =>
  sort === 'price-asc' ? 'asc' : sort === 'price-desc' ? 'desc' : undefined;

/** The most indexed words a typo tier reads besides the query word's own term. */
const MAX_TYPO_CORRECTIONS = 3;

/**
 * The title terms of the indexed words within one edit of the plan's typo word (one BatchGetItem
 * of its deletion variants, lib/db/typo-vocabulary.ts), at most MAX_TYPO_CORRECTIONS, the
 * shortest first; the word itself is not one (its term is read anyway).
 */
async function typoTerms(plan: SearchPlan): Promise<string[]> {
  const word = plan.typoWord;
  if (!word) return [];
  const near = (await typoWordsOf(deletionVariants(word)))
    .filter((w) => w !== word && withinOneEdit(word, w))
    .sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  return [...new Set(near.map((w) => titleTerm(indexPrefix(w))))].slice(0, MAX_TYPO_CORRECTIONS);
}

/**
 * Listed books matching the query (the caller's own left out when there is one), by relevance
 * (the default: the plan's tiers in rank order, newest first within each, lib/db/books.ts
 * `searchRelevancePage`; only this order looks up typos), newest first or by price (one Query
 * per exact term of the query, lib/db/books.ts `searchPage`). The entries carry the books' list
 * fields, then the full check of the query: no per-book read, so a page costs the same whatever
 * the number of books; it may be short with a cursor to continue.
 */
export async function searchBooks(
  query: string,
  browser: Browser,
  options: BrowseOptions,
): Promise<Page<Book>> {
  const callerId = browser?.userId ?? null;
  const campus = campusFor(browser, options.campus);
  const sort = options.sort ?? 'relevance';
  const byPrice = priceOrder(sort);
  // no plan (nothing searchable in the query): no terms, so no read, but the cursor is checked
  const plan = planSearch(query);
  const read = {
    campus,
    limit: options.limit ?? DEFAULT_PAGE,
    ...(options.cursor ? { cursor: options.cursor } : {}),
    // the query as searched (its words), not its terms: the typo corrections may grow between pages
    scope: browseScope(`search:${plan ? words(query).join(' ') : ''}`, campus, { ...options, sort }),
    excludeOwners: hiddenOwners(browser),
    filters: filtersOf(options),
  };
  if (!plan) {
    await searchPage({ ...read, terms: [] });
    return { items: [], next: null };
  }
  const page =
    sort === 'relevance'
      ? await searchRelevancePage({
          ...read,
          tiers: plan.tiers.map((tier) => ({
            terms:
              tier.rank === Rank.typo ? async () => [...tier.terms, ...(await typoTerms(plan))] : tier.terms,
            keeps: (b: BookRecord) => plan.rankOf(b) === tier.rank,
          })),
        })
      : await searchPage({
          ...read,
          terms: plan.terms,
          ...(byPrice ? { byPrice } : {}),
        });
  const found = page.items.flatMap(({ book }) => (plan.matches(book) ? [book] : []));
  return { items: await withInCart(callerId, found), next: page.next };
}

/** API books; with a caller, each with `inCart` (one BatchGet of the cart keys). */
async function withInCart(callerId: string | null, books: BookRecord[]): Promise<Book[]> {
  if (!callerId) return books.map((b) => toApiBook(b));
  const inCart = await inCartIds(
    callerId,
    books.map((b) => b.id),
  );
  return books.map((b) => toApiBook(b, { inCart: inCart.has(b.id) }));
}
