/**
 * The key schema: the only module that knows PK/SK/GSI strings.
 *
 * One table, generic attributes: pk/sk, gsi1pk/gsi1sk, gsi2pk/gsi2sk, gsi3pk/gsi3sk, ttl.
 * Every entity declares its keys here; repositories call these builders and never concatenate
 * key strings themselves. The README's "Key schema" table mirrors this file.
 */

import { config } from '#lib/config.ts';
import type { ItemKey } from '#lib/table/schema.ts';
import { mailboxOf } from '#lib/values/mailbox.ts';

export { INDEX, type ItemKey } from '#lib/table/schema.ts';

/** Sort keys that order newest-last by time, ties broken by id (ULIDs are time-ordered too). */
export const timeSortKey = (isoDate: string, id: string): string => `${isoDate}#${id}`;
/**
 * The sort key of a listed book in the date listings (gsi1 `BOOKS#S0#<shard>`, gsi4): the listing
 * date as 9 base-36 digits of epoch milliseconds, then the id. It orders as `timeSortKey` does but
 * is 15 bytes shorter, which is a seventh of an entry of the keys-only indexes that a deep `skip`
 * reads through (docs/concurrency.md, "Bounded skip").
 */
export const listingSortKey = (isoDate: string, id: string): string =>
  `${Date.parse(isoDate).toString(36).padStart(9, '0')}#${id}`;
/** Bytes of one keys-only index entry of a listed book in partition `pk` of index `index` (`gsi1`, `gsi4`). */
export const listingKeyEntryBytes = (index: string, pk: string): number =>
  // pk `BOOK#<26>`, sk `BOOK`, the index's partition key and `listingSortKey` (9 + 1 + 26), with the attribute names
  'pk'.length + 31 + 'sk'.length + 4 + 2 * (index.length + 2) + pk.length + 36;

// ---------------------------------------------------------------------------------------------
// Accounts
// ---------------------------------------------------------------------------------------------

/** A user's profile (and the partition of everything the user owns: cart, requests, ...). */
export const userKey = (userId: string): ItemKey => ({ pk: `USER#${userId}`, sk: 'PROFILE' });
export const userPartition = (userId: string): string => `USER#${userId}`;
/** Whether a table key is a user's profile item (USER#<id> / PROFILE). */
export const isUserProfileKey = (key: Record<string, unknown>): boolean =>
  typeof key.pk === 'string' && key.pk.startsWith('USER#') && key.sk === 'PROFILE';

/** All users, oldest first (admin listing): gsi1. */
export const usersIndex = (createdAt: string, userId: string) => ({
  gsi1pk: 'USERS',
  gsi1sk: timeSortKey(createdAt, userId),
});
export const USERS_INDEX_PK = 'USERS';

/**
 * Uniqueness of an e-mail address, by the mailbox it reaches (lib/values/mailbox.ts): `a+x@` and
 * `a@` (and, on a Gmail-style campus, `a.b@` and `ab@`) hold one item, so one mailbox holds one
 * account, and any of its spellings finds that account.
 */
export const emailKey = (normalisedEmail: string): ItemKey => ({
  pk: `EMAIL#${mailboxOf(normalisedEmail, config.GMAIL_STYLE_DOMAINS)}`,
  sk: 'EMAIL',
});

/** A single-use e-mailed token (confirmation or reset), addressed by the SHA-256 of the token. */
export const tokenKey = (tokenHash: string): ItemKey => ({ pk: `TOKEN#${tokenHash}`, sk: 'TOKEN' });
/**
 * What became of a sign-up link that no longer works (used to confirm, or replaced by a newer one),
 * so a reopened link can say so: `SPENT#<tokenHash>` / `SPENT`, kept 30 days.
 */
export const spentTokenKey = (tokenHash: string): ItemKey => ({ pk: `SPENT#${tokenHash}`, sk: 'SPENT' });

/**
 * One login's refresh family (lib/db/sessions.ts): the hash of its current refresh token, its
 * generation and its sliding expiry. `REFRESH#<familyId>` / `REFRESH`, ttl at the expiry.
 */
export const refreshFamilyKey = (familyId: string): ItemKey => ({ pk: `REFRESH#${familyId}`, sk: 'REFRESH' });

/**
 * Pending sign-ups of one address, newest last (gsi1 on the `confirm` token items): resending the
 * confirmation e-mail finds the latest pending sign-up without knowing its token.
 */
export const pendingSignupIndex = (normalisedEmail: string, createdAt: string, tokenHash: string) => ({
  gsi1pk: pendingSignupsPk(normalisedEmail),
  gsi1sk: timeSortKey(createdAt, tokenHash),
});
export const pendingSignupsPk = (normalisedEmail: string): string => `PENDING#${normalisedEmail}`;

/**
 * An outbox e-mail (lib/db/outbox.ts): a message the service owes someone, written in the
 * transaction of the change it tells about and sent by the outbox consumer. `OUTBOX#<id>` / `OUTBOX`.
 * While it is owed it sits on gsi1 under `OUTBOX` sorted by when it next needs attention (the
 * sweeper reads that index); sent messages leave the index, failed ones move to `OUTBOX#FAILED`.
 */
export const outboxKey = (id: string): ItemKey => ({ pk: `OUTBOX#${id}`, sk: 'OUTBOX' });
/** Whether a key (e.g. of a stream record) is an outbox message's. */
export const isOutboxKey = (key: Record<string, unknown>): boolean =>
  String(key.pk).startsWith('OUTBOX#') && key.sk === 'OUTBOX';
export const OUTBOX_DUE_PK = 'OUTBOX';
export const OUTBOX_FAILED_PK = 'OUTBOX#FAILED';
/** The outbox index entry: owed messages by the time they are due for the sweeper's attention. */
export const outboxDueIndex = (dueAt: string, id: string) => ({
  gsi1pk: OUTBOX_DUE_PK,
  gsi1sk: timeSortKey(dueAt, id),
});
export const outboxFailedIndex = (failedAt: string, id: string) => ({
  gsi1pk: OUTBOX_FAILED_PK,
  gsi1sk: timeSortKey(failedAt, id),
});

/**
 * A stream record some processor failed on (lib/db/stream-failures.ts): the record kept whole, and
 * which processors are done with it, so a retry runs only the ones that failed and a record that
 * ran out of retries can be replayed. `STREAMFAIL#<eventID>` / `STREAMFAIL`, listed on gsi1
 * `STREAMFAILS` by first failure; ttl 30 days.
 */
export const streamFailureKey = (eventId: string): ItemKey => ({
  pk: `STREAMFAIL#${eventId}`,
  sk: 'STREAMFAIL',
});
export const STREAM_FAILURES_PK = 'STREAMFAILS';
export const streamFailuresIndex = (firstFailedAt: string, eventId: string) => ({
  gsi1pk: STREAM_FAILURES_PK,
  gsi1sk: timeSortKey(firstFailedAt, eventId),
});

/** A throttle window for one action and one subject (login failures, resend, reset e-mails). */
export const throttleKey = (action: string, subject: string): ItemKey => ({
  pk: `THROTTLE#${action}#${subject}`,
  sk: 'THROTTLE',
});

/** The fixed-window counter of one action and subject: the window's start (epoch seconds) is part of the key. */
export const throttleWindowKey = (action: string, subject: string, windowStart: number): ItemKey =>
  throttleKey(action, `${subject}#${windowStart}`);

// ---------------------------------------------------------------------------------------------
// Books
// ---------------------------------------------------------------------------------------------

export const bookKey = (bookId: string): ItemKey => ({ pk: `BOOK#${bookId}`, sk: 'BOOK' });
/**
 * The expiry of one pending photo upload slot: PHOTOSLOTS / <expiresAt, 10 digits>#<bookId>#<photoId>,
 * so the sweeper reads the expired ones in order with one Query (the slot itself lives on the book).
 */
export const PHOTO_SLOTS_PK = 'PHOTOSLOTS';
export const photoSlotExpiryKey = (expiresAt: number, bookId: string, photoId: string): ItemKey => ({
  pk: PHOTO_SLOTS_PK,
  sk: `${String(expiresAt).padStart(10, '0')}#${bookId}#${photoId}`,
});
/** Whether a key (e.g. of a stream record) is a book's. */
export const isBookKey = (key: Record<string, unknown>): boolean =>
  String(key.pk).startsWith('BOOK#') && key.sk === 'BOOK';

/**
 * Campuses in keys. A campus is a lower-cased domain (`uni.edu`, see lib/values/campus.ts). A
 * record without one (seeded without a campus) has keys without a campus part.
 */
export const ALL_CAMPUSES = 'all';

/**
 * The campus part of a matching key: `<campus>#`, or nothing for a record without a campus (which
 * then only meets other such records).
 */
const inCampus = (campus: string | null | undefined): string => (campus ? `${campus}#` : '');

/**
 * Write sharding of the busy listing partitions (docs/browsing.md, "Key schema and capacity"): a
 * listed book goes to shard `shardOf(bookId, n)` of its listing; a page reads the n shards in
 * parallel and merges them (lib/table/sharded.ts). The listing of every campus (`campus=all`) has
 * LISTING_SHARDS_ALL shards; a campus has one unless it is named in CAMPUS_LISTING_SHARDS (a campus
 * that outgrows one partition; changing its count needs a migration script to rewrite its books' keys).
 */
export const LISTING_SHARDS_ALL = 8;
export const CAMPUS_LISTING_SHARDS: Readonly<Record<string, number>> = {};
export const campusListingShards = (campus: string): number => CAMPUS_LISTING_SHARDS[campus] ?? 1;

/** A stable shard in 0..n-1 of an id (FNV-1a), so a book always lands on the same shard. */
export function shardOf(id: string, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % n;
}

/**
 * A book's index attributes, derived from its status, date, owner, buyer and campus. Write them
 * whenever one of those changes (e.g. checkout sets status 1 and the buyer: gsi1pk, gsi3 and gsi4
 * change too; lib/db/books.ts `bookIndexWrites` gives the SET and REMOVE of a status move).
 *  - gsi1: books of one status by date; status 0 is the listing of every campus, sharded
 *    (`BOOKS#S0#<shard>` / `listingSortKey`, newest first when read backwards, oldest first for
 *    the daily unlisting); `BOOKS#S1`.. / `timeSortKey` for the dashboard;
 *  - gsi2: books of one owner by date (getUsersPosts, getSoldBooks);
 *  - gsi3: books of one buyer by purchase time (getPurchasedBooks), only once bought;
 *  - gsi4: the listing of one campus (`CAMPUS#<campus>#S0#<shard>` / `listingSortKey`), only while
 *    listed.
 */
export const bookIndexes = (b: {
  id: string;
  status: number;
  date: string;
  ownerId: string;
  campus?: string | null;
  buyerId?: string | null;
  boughtAt?: string | null;
}) => ({
  gsi1pk: b.status === 0 ? allListingPk(shardOf(b.id, LISTING_SHARDS_ALL)) : booksByStatusPk(b.status),
  gsi1sk: b.status === 0 ? listingSortKey(b.date, b.id) : timeSortKey(b.date, b.id),
  gsi2pk: `OWNER#${b.ownerId}`,
  gsi2sk: timeSortKey(b.date, b.id),
  ...(b.buyerId && b.boughtAt ? { gsi3pk: `BUYER#${b.buyerId}`, gsi3sk: timeSortKey(b.boughtAt, b.id) } : {}),
  ...(b.status === 0 && b.campus
    ? {
        gsi4pk: campusListingPk(b.campus, shardOf(b.id, campusListingShards(b.campus))),
        gsi4sk: listingSortKey(b.date, b.id),
      }
    : {}),
});
export const booksByStatusPk = (status: number): string => `BOOKS#S${status}`;
/** One shard of the listing of every campus (gsi1). */
export const allListingPk = (shard: number): string => `BOOKS#S0#${shard}`;
/** Every shard of the listing of every campus. */
export const allListingPks = (): string[] =>
  Array.from({ length: LISTING_SHARDS_ALL }, (_, i) => allListingPk(i));
/** One shard of one campus's listing (gsi4). */
export const campusListingPk = (campus: string, shard: number): string => `CAMPUS#${campus}#S0#${shard}`;
/** Every shard of one campus's listing. */
export const campusListingPks = (campus: string): string[] =>
  Array.from({ length: campusListingShards(campus) }, (_, i) => campusListingPk(campus, i));
/**
 * The price-ordered listings (sort=price-asc|price-desc): one entry per listed book in its campus's
 * and in every campus's, written by the stream consumer with the book's fields (lib/books/
 * price-index.ts), `PRICES#<campus|all>#<shard>` / `<priceCents, 7 digits>#<date>#<id>`, sharded
 * like the date listings.
 */
export const priceListingPks = (campus: string): string[] =>
  Array.from(
    { length: campus === ALL_CAMPUSES ? LISTING_SHARDS_ALL : campusListingShards(campus) },
    (_, i) => `PRICES#${campus}#${i}`,
  );
export const PRICES_PREFIX = 'PRICES#';
export const priceSortKey = (priceCents: number, date: string, id: string): string =>
  `${String(priceCents).padStart(7, '0')}#${timeSortKey(date, id)}`;
/** The price listing entries of a listed book: every campus's, and its campus's when it has one. */
export const priceListingKeys = (b: {
  id: string;
  priceCents: number;
  date: string;
  campus?: string | null;
}) =>
  [ALL_CAMPUSES, ...(b.campus ? [b.campus] : [])].map((campus) => {
    const pks = priceListingPks(campus);
    return { pk: pks[shardOf(b.id, pks.length)] as string, sk: priceSortKey(b.priceCents, b.date, b.id) };
  });

/**
 * The listing partitions of a campus, or of every campus, with their index and the keys-only index
 * over the same keys (`keysIndex`, read to skip through the listing cheaply).
 */
export const listingPartitions = (
  campus: string,
): { index: 'gsi1' | 'gsi4'; keysIndex: 'gsi1keys' | 'gsi4keys'; pks: string[] } =>
  campus === ALL_CAMPUSES
    ? { index: 'gsi1', keysIndex: 'gsi1keys', pks: allListingPks() }
    : { index: 'gsi4', keysIndex: 'gsi4keys', pks: campusListingPks(campus) };
export const booksOfOwnerPk = (ownerId: string): string => `OWNER#${ownerId}`;
export const booksOfBuyerPk = (buyerId: string): string => `BUYER#${buyerId}`;

/**
 * The search index of listed (status 0) books, one item per (term, book), written and deleted by
 * the stream consumer (lib/books/search-index.ts). A term is `T#<title word prefix>`,
 * `C#<normalised course code>` or `I#<ISBN-13>`; the sort key orders a term's books by date, so
 * a search reads newest first and stops when its page is full.
 */
export const SEARCH_PREFIX = 'SEARCH#';
/**
 * A term's partition: of every campus (`SEARCH#<term>`, as before campuses) or of one campus
 * (`SEARCH#C#<campus>#<term>`). A book with a campus has an entry in both; one without only in
 * the first.
 */
export const searchTermPk = (term: string, campus: string = ALL_CAMPUSES): string =>
  campus === ALL_CAMPUSES ? `${SEARCH_PREFIX}${term}` : `${SEARCH_PREFIX}C#${campus}#${term}`;
/**
 * The same entries by price (gsi4, for sort=price-asc|price-desc): `SEARCHP#<term>` or
 * `SEARCHP#C#<campus>#<term>` / `priceSortKey(...)`. Every search entry carries both orders, so a
 * price page of a search is one Query per term like a date page.
 */
export const searchPricePk = (term: string, campus: string = ALL_CAMPUSES): string =>
  campus === ALL_CAMPUSES ? `SEARCHP#${term}` : `SEARCHP#C#${campus}#${term}`;
export const searchPriceIndex = (
  term: string,
  campus: string,
  b: { id: string; priceCents: number; date: string },
) => ({ gsi4pk: searchPricePk(term, campus), gsi4sk: priceSortKey(b.priceCents, b.date, b.id) });
export const searchEntryKey = (term: string, date: string, bookId: string, campus?: string): ItemKey => ({
  pk: searchTermPk(term, campus),
  sk: timeSortKey(date, bookId),
});
export const titleTerm = (prefix: string): string => `T#${prefix}`;
export const courseTerm = (courseNorm: string): string => `C#${courseNorm}`;
export const isbnTerm = (isbn13: string): string => `I#${isbn13}`;
/** A course's department (the letters of `MATH235`): `D#MATH`. */
export const deptTerm = (dept: string): string => `D#${dept}`;
/** A course's number (the rest of `MATH235`): `N#235`. */
export const numberTerm = (number: string): string => `N#${number}`;

/**
 * The typo vocabulary (lib/books/typo.ts): for one deletion variant of title and author words,
 * the set of indexed words that have it, `TYPO#<variant>` / `TYPO` with `typoWords` (a string set).
 * Words only ever join a set (an ADD, so a redelivered record writes nothing new); a word no book
 * uses any more stays and costs a search one empty Query of its term.
 */
export const TYPO_PREFIX = 'TYPO#';
export const typoVariantKey = (variant: string): ItemKey => ({ pk: `${TYPO_PREFIX}${variant}`, sk: 'TYPO' });

// ---------------------------------------------------------------------------------------------
// ISBN lookup and price hints (docs/browsing.md, "ISBN lookup and the price hint")
// ---------------------------------------------------------------------------------------------

/**
 * The cached answer of the book-data source for one ISBN-13 (found or not found):
 * `ISBNLOOKUP#<isbn13>` / `ISBNLOOKUP`, ttl 30 days. Its own partition prefix, so the lookup's IAM
 * role can be given write access to these items and no others (infra/iam.yml, dynamodb:LeadingKeys).
 */
export const ISBN_LOOKUP_PREFIX = 'ISBNLOOKUP#';
export const isbnLookupKey = (isbn13: string): ItemKey => ({
  pk: `${ISBN_LOOKUP_PREFIX}${isbn13}`,
  sk: 'ISBNLOOKUP',
});

/**
 * The last 50 completed sales (status 3) of one ISBN-13, at every campus and at each campus, in one
 * item: `SALEPRICES#<isbn13>` / `SALES`, kept by the stream consumer (lib/books/price-hint.ts) and
 * read with one GetItem by the lookup. (Its first shape, one item per campus with the campus as
 * its sort key, is deleted by the backfill: lib/db/sale-prices.ts `deleteFirstShapeSales`.)
 */
export const SALE_PRICES_PREFIX = 'SALEPRICES#';
export const SALE_PRICES_SK = 'SALES';
export const salePricesKey = (isbn13: string): ItemKey => ({
  pk: `${SALE_PRICES_PREFIX}${isbn13}`,
  sk: SALE_PRICES_SK,
});

// ---------------------------------------------------------------------------------------------
// Requests and matching
// ---------------------------------------------------------------------------------------------

/**
 * A book request: USER#<uid> / REQUEST#<id> (a user's requests, oldest first by ULID). Its index
 * attributes let the stream consumer find the requests a newly listed book can match, by Query:
 *  - gsi1 `REQ#I#<isbn13>` (only when the request names an ISBN);
 *  - gsi2 `REQ#C#<courseNorm>`;
 *  - gsi3 `REQ#W#<key word>` (the request's longest significant title word; see lib/matching).
 */
export const requestKey = (userId: string, requestId: string): ItemKey => ({
  pk: userPartition(userId),
  sk: `REQUEST#${requestId}`,
});
export const REQUEST_SK_PREFIX = 'REQUEST#';
/** Whether a key (e.g. of a stream record) is a request's. */
export const isRequestKey = (key: Record<string, unknown>): boolean =>
  String(key.pk).startsWith('USER#') && String(key.sk).startsWith(REQUEST_SK_PREFIX);
export const requestIndexes = (r: {
  id: string;
  createdAt: string;
  isbn: string | null;
  courseNorm: string;
  keyWord: string | null;
  campus?: string | null;
}) => ({
  ...(r.isbn ? { gsi1pk: requestsByIsbnPk(r.isbn, r.campus), gsi1sk: timeSortKey(r.createdAt, r.id) } : {}),
  gsi2pk: requestsByCoursePk(r.courseNorm, r.campus),
  gsi2sk: timeSortKey(r.createdAt, r.id),
  ...(r.keyWord
    ? { gsi3pk: requestsByWordPk(r.keyWord, r.campus), gsi3sk: timeSortKey(r.createdAt, r.id) }
    : {}),
});
/** Open requests of one campus naming one ISBN (gsi1). */
export const requestsByIsbnPk = (isbn13: string, campus?: string | null): string =>
  `REQ#${inCampus(campus)}I#${isbn13}`;
/** Open requests of one campus for one normalised course code (gsi2). */
export const requestsByCoursePk = (courseNorm: string, campus?: string | null): string =>
  `REQ#${inCampus(campus)}C#${courseNorm}`;

/**
 * DynamoDB refuses a key over 2,048 bytes (partition) or 1,024 bytes (sort). A title word that is
 * longer than MAX_TERM_BYTES once normalised (NFKD can turn one character into eighteen) is never
 * an index key: such a word is skipped by the title-word indexes, never a 500.
 */
export const MAX_TERM_BYTES = 256;
export const fitsKey = (term: string): boolean => Buffer.byteLength(term, 'utf8') <= MAX_TERM_BYTES;
/** Open requests whose key title word is this word (gsi3). */
export const requestsByWordPk = (word: string, campus?: string | null): string =>
  `REQ#${inCampus(campus)}W#${word}`;

/**
 * The matching index of listed (status 0) books, kept by the stream consumer while a book is
 * listed: one item per ISBN, normalised course and significant title word of its campus, newest
 * first. pk `LB#<campus>#I#<isbn13>` | `LB#<campus>#C#<courseNorm>` | `LB#<campus>#W#<word>`
 * (no campus part for a book without a campus), sk `<date>#<bookId>`.
 */
export const listedBookIsbnPk = (isbn13: string, campus?: string | null): string =>
  `LB#${inCampus(campus)}I#${isbn13}`;
export const listedBookCoursePk = (courseNorm: string, campus?: string | null): string =>
  `LB#${inCampus(campus)}C#${courseNorm}`;
export const listedBookWordPk = (word: string, campus?: string | null): string =>
  `LB#${inCampus(campus)}W#${word}`;
export const listedBookKey = (pk: string, date: string, bookId: string): ItemKey => ({
  pk,
  sk: timeSortKey(date, bookId),
});

/**
 * A match of one listed book to one request: USER#<requester> / MATCH#<requestId>#<bookId>.
 *  - gsi2 `MATCHES#<uid>` / `<bookDate>#<bookId>#<requestId>`: the user's matches, newest book first;
 *  - gsi3 `BOOKMATCH#<bookId>` / `<uid>#<requestId>`: the matches of a book (dropped when it leaves status 0).
 * The matches of one request are a key prefix (`MATCH#<requestId>#`), so deleteRequest drops them.
 */
export const matchKey = (userId: string, requestId: string, bookId: string): ItemKey => ({
  pk: userPartition(userId),
  sk: `MATCH#${requestId}#${bookId}`,
});
export const matchesOfRequestPrefix = (requestId: string): string => `MATCH#${requestId}#`;
export const matchIndexes = (m: { userId: string; requestId: string; bookId: string; bookDate: string }) => ({
  gsi2pk: matchesOfUserPk(m.userId),
  gsi2sk: `${m.bookDate}#${m.bookId}#${m.requestId}`,
  gsi3pk: matchesOfBookPk(m.bookId),
  gsi3sk: `${m.userId}#${m.requestId}`,
});
export const matchesOfUserPk = (userId: string): string => `MATCHES#${userId}`;

/**
 * Where the matcher stopped reading a listed book's candidate requests when the consumer's time ran
 * short: `MATCHSCAN#<bookId>` / `<bookDate>` (the listing), with the lookup and the start key to go
 * on from. Writing it hands the rest to the next stream record; deleted when the scan is done.
 */
export const matchScanKey = (bookId: string, bookDate: string): ItemKey => ({
  pk: `MATCHSCAN#${bookId}`,
  sk: bookDate,
});
/** Whether a key (e.g. of a stream record) is a match scan's. */
export const isMatchScanKey = (key: Record<string, unknown>): boolean =>
  String(key.pk).startsWith('MATCHSCAN#');
export const matchesOfBookPk = (bookId: string): string => `BOOKMATCH#${bookId}`;

// ---------------------------------------------------------------------------------------------
// Cart
// ---------------------------------------------------------------------------------------------

/** Sort-key prefix of a user's cart items (in the user's partition). */
export const CART_PREFIX = 'CART#';

/**
 * How many books the user's cart holds (`count`), moved in the same transaction as each cart item
 * put or delete, so the cart limit is a condition on it. Its sk does not begin with `CART#`.
 */
export const cartCountKey = (userId: string): ItemKey => ({ pk: userPartition(userId), sk: 'CARTCOUNT' });

/** One book in a user's cart: the user's cart is `USER#<id>` with sk beginning `CART#`. */
export const cartItemKey = (userId: string, bookId: string): ItemKey => ({
  pk: userPartition(userId),
  sk: `${CART_PREFIX}${bookId}`,
});

// ---------------------------------------------------------------------------------------------
// Saved books (docs/saved.md)
// ---------------------------------------------------------------------------------------------

/** Sort-key prefix of a user's saved books (in the user's partition). */
export const SAVED_PREFIX = 'SAVED#';

/**
 * One book a user saved: `USER#<uid>` / `SAVED#<bookId>`, on gsi1 `SAVED#<uid>` / `<savedAt>#<bookId>`
 * (the user's saved books, newest first: getSavedBooks) and on gsi2 `SAVERS#<bookId>` / `<uid>`
 * (the book's savers: who to tell when its price drops or it is sold or unlisted).
 */
export const savedBookKey = (userId: string, bookId: string): ItemKey => ({
  pk: userPartition(userId),
  sk: `${SAVED_PREFIX}${bookId}`,
});
export const savedBooksOfUserPk = (userId: string): string => `SAVED#${userId}`;
export const saversOfBookPk = (bookId: string): string => `SAVERS#${bookId}`;
export const savedBookIndexes = (userId: string, bookId: string, savedAt: string) => ({
  gsi1pk: savedBooksOfUserPk(userId),
  gsi1sk: timeSortKey(savedAt, bookId),
  gsi2pk: saversOfBookPk(bookId),
  gsi2sk: userId,
});
/**
 * How many books the user has saved (`count`), moved in the same transaction as each save and
 * unsave, so the limit is a condition on it. Its sk does not begin with `SAVED#`.
 */
export const savedCountKey = (userId: string): ItemKey => ({ pk: userPartition(userId), sk: 'SAVEDCOUNT' });

// ---------------------------------------------------------------------------------------------
// Orders, idempotency
// ---------------------------------------------------------------------------------------------

/** An order (one checkout). */
export const orderKey = (orderId: string): ItemKey => ({ pk: `ORDER#${orderId}`, sk: 'ORDER' });
/** Whether a key (e.g. of a stream record) is an order's (not one of its hand-overs). */
export const isOrderKey = (key: Record<string, unknown>): boolean =>
  String(key.pk).startsWith('ORDER#') && key.sk === 'ORDER';

/**
 * An order's index attributes:
 *  - gsi1: orders of one status by creation time (admin getOrders);
 *  - gsi2: orders of one buyer by creation time.
 */
export const orderIndexes = (o: { id: string; status: number; createdAt: string; buyerId: string }) => ({
  gsi1pk: ordersByStatusPk(o.status),
  gsi1sk: timeSortKey(o.createdAt, o.id),
  gsi2pk: ordersOfBuyerPk(o.buyerId),
  gsi2sk: timeSortKey(o.createdAt, o.id),
});
export const ordersByStatusPk = (status: number): string => `ORDERS#${status}`;
export const ordersOfBuyerPk = (buyerId: string): string => `ORDERS_OF#${buyerId}`;

/**
 * A checkout's Idempotency-Key, per user, addressed by the SHA-256 of the key (hex): holds the
 * order id it produced; written in the same transaction as the order; expires (ttl).
 */
export const idempotencyKey = (userId: string, keyHash: string): ItemKey => ({
  pk: `IDEMPOTENCY#${userId}#${keyHash}`,
  sk: 'IDEMPOTENCY',
});

// ---------------------------------------------------------------------------------------------
// Notifications
// ---------------------------------------------------------------------------------------------

/**
 * An in-app notification: USER#<uid> / NOTIF#<id>, where the id is a hash of what caused it (a
 * match, or one stream record), so a redelivered record writes the same key and a conditional put
 * makes it once. gsi1 `NOTIFS#<uid>` / `<date>#<id>`: the user's notifications, newest first.
 * It also carries the state of its e-mail (pending, sending, sent, none).
 */
export const notificationKey = (userId: string, notificationId: string): ItemKey => ({
  pk: userPartition(userId),
  sk: `NOTIF#${notificationId}`,
});
export const notificationIndexes = (userId: string, date: string, notificationId: string) => ({
  gsi1pk: notificationsOfUserPk(userId),
  gsi1sk: timeSortKey(date, notificationId),
});
export const notificationsOfUserPk = (userId: string): string => `NOTIFS#${userId}`;
/** When the user last marked all notifications read: everything dated before is read. */
export const notificationsReadMarkKey = (userId: string): ItemKey => ({
  pk: userPartition(userId),
  sk: 'NOTIFS_READ',
});

// ---------------------------------------------------------------------------------------------
// Dashboard: counters and audit log
// ---------------------------------------------------------------------------------------------

/**
 * Service-wide counters, moved with ADD in the same transaction as the change they count:
 * totalUsers, totalBooks, books_s0..books_s5 (books by status), totalOrders, grossSales, feesEarned.
 * Money counters (grossSales, feesEarned) are integer cents.
 *
 * Sharded: each write moves one of GLOBAL_STATS_SHARDS items (its own partition, chosen at random),
 * and a read sums them all in one BatchGetItem, so concurrent writes almost never touch the same
 * item (a TransactionConflict) and no partition takes every counter write.
 */
export const GLOBAL_STATS_SHARDS = 16;
export const globalStatsShardKey = (shard: number): ItemKey => ({ pk: `STATS#${shard}`, sk: 'GLOBAL' });
/** Every item that holds a part of the global counters (the shards). */
export const globalStatsKeys = (): ItemKey[] =>
  Array.from({ length: GLOBAL_STATS_SHARDS }, (_, i) => globalStatsShardKey(i));

/**
 * The weekly counters (orders, grossSales and feesEarned in cents, newListings) of one scope (a
 * campus, or `all`) and one ISO week (`YYYY-MM-DD`, its Monday, UTC), in WEEKLY_STATS_SHARDS parts:
 * `STATS#W#<scope>` / `<week>#<shard>`, kept by the stream consumer (lib/dashboard/weekly-stats.ts),
 * each write moving one part chosen at random so concurrent consumer batches seldom race for the
 * busy `all` item of the current week. The weeks of a scope are one partition, sorted by week, so
 * N weeks are one Query of at most N x WEEKLY_STATS_SHARDS items, summed per week.
 */
export const WEEKLY_STATS_SHARDS = 4;
export const weeklyStatsPk = (scope: string): string => `STATS#W#${scope}`;
export const weeklyStatsKey = (scope: string, week: string, shard: number): ItemKey => ({
  pk: weeklyStatsPk(scope),
  sk: `${week}#${shard}`,
});
/** The sort key range of the weeks from `first` to `last` (Mondays, inclusive), every part. */
export const weeklyStatsRange = (first: string, last: string) => ({ from: `${first}#`, to: `${last}#~` });
/**
 * That the stream consumer counted one fact (a listing, a sale, an order, a cancelled sale) in the
 * weekly counters: `STATSCOUNTED#<fact>` / `STATSCOUNTED`, put under a condition in the same
 * transaction as the counters it moved, so a redelivered record never counts twice; ttl 40 days.
 */
export const weeklyStatsCountedKey = (fact: string): ItemKey => ({
  pk: `STATSCOUNTED#${fact}`,
  sk: 'STATSCOUNTED',
});

/**
 * A user's counters, one item, moved with ADD in the same transaction as the change they count:
 * booksBought, booksSold, moneyMade (cents, from status 3 only), activeListings, openRequests.
 */
export const userStatsKey = (userId: string): ItemKey => ({ pk: `USER#${userId}`, sk: 'STATS' });

/**
 * The audit log of dashboard actions, in AUDIT_SHARDS partitions `AUDIT#<n>` (the shard chosen by
 * the entry's id), each newest last by time; read backwards and merged for newest first
 * (lib/db/audit.ts). The daily unlisting writes one entry per book, inside transactions (2 write
 * units each): at its pace of 200 books a second that is about 100 units a second per shard.
 */
export const AUDIT_SHARDS = 4;
const auditShardOf = (entryId: string): number => {
  let h = 0;
  for (const c of entryId) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h % AUDIT_SHARDS;
};
/** Every partition the audit log reads. */
export const AUDIT_PARTITIONS: readonly string[] = Array.from(
  { length: AUDIT_SHARDS },
  (_, n) => `AUDIT#${n}`,
);
export const auditKey = (at: string, entryId: string): ItemKey => ({
  pk: `AUDIT#${auditShardOf(entryId)}`,
  sk: timeSortKey(at, entryId),
});

/**
 * The user search index (findUsers), kept by a stream processor from user profiles: one item per
 * searchable field and user, `USERSEARCH#E|F|L` / `<lower-cased value>#<userId>`; a prefix search
 * is `begins_with(sk, <lower-cased query>)` on each of the three partitions.
 */
export const UserSearchField = { email: 'E', firstName: 'F', lastName: 'L', campus: 'C' } as const;
export type UserSearchFieldCode = (typeof UserSearchField)[keyof typeof UserSearchField];
export const userSearchPk = (field: UserSearchFieldCode): string => `USERSEARCH#${field}`;
export const userSearchKey = (field: UserSearchFieldCode, lowerValue: string, userId: string): ItemKey => ({
  pk: userSearchPk(field),
  sk: `${lowerValue}#${userId}`,
});

// ---------------------------------------------------------------------------------------------
// Trust and e-mail: match e-mail marks, daily digests
// ---------------------------------------------------------------------------------------------

/**
 * The last match e-mail (or digest entry) a user got about one book: USER#<uid> / MATCHMAIL#<bookId>
 * with `at` and the listing's `bookDate`; a relisted book is not e-mailed again within 7 days.
 */
export const matchMailKey = (userId: string, bookId: string): ItemKey => ({
  pk: userPartition(userId),
  sk: `MATCHMAIL#${bookId}`,
});

/**
 * A match waiting for a daily digest: `DIGEST#<yyyy-mm-dd>` / `<userId>#<bookId>` (the UTC day of
 * the match). One partition per day, read in order, so a user's entries are contiguous.
 */
export const digestDayPk = (day: string): string => `DIGEST#${day}`;
export const digestEntryKey = (day: string, userId: string, bookId: string): ItemKey => ({
  pk: digestDayPk(day),
  sk: `${userId}#${bookId}`,
});
/**
 * How far the digest of a day got: `DIGESTRUN` / `<yyyy-mm-dd>` with `done`, or the cursor a run
 * that ran out of time stopped at (the next hourly run carries on from there).
 */
export const digestRunKey = (day: string): ItemKey => ({ pk: 'DIGESTRUN', sk: day });
/** The digest of one day for one user, claimed before it is sent: USER#<uid> / DIGEST#<yyyy-mm-dd>. */
export const digestSentKey = (userId: string, day: string): ItemKey => ({
  pk: userPartition(userId),
  sk: `DIGEST#${day}`,
});

// ---------------------------------------------------------------------------------------------
// Trust: reports
// ---------------------------------------------------------------------------------------------

/**
 * One person's report of one book: BOOK#<bookId> / REPORT#<reporterId> (one per person and book;
 * the reporter id is the keyed hash of the mailbox, lib/moderation/reporters.ts).
 */
export const REPORT_SK_PREFIX = 'REPORT#';
export const reportKey = (bookId: string, reporterId: string): ItemKey => ({
  pk: bookKey(bookId).pk,
  sk: `${REPORT_SK_PREFIX}${reporterId}`,
});

/** A reporter (a person, by the keyed hash of their mailbox): REPORTER#<reporterId> / REPORTER. */
export const reporterKey = (reporterId: string): ItemKey => ({
  pk: `REPORTER#${reporterId}`,
  sk: 'REPORTER',
});

/**
 * The moderation queue: one item per reported, unresolved book, `REPORTS` / `<999999 - count>#<bookId>`,
 * so a Query reads the most reported first. Moved (delete + put) with each new report.
 */
export const REPORTS_PK = 'REPORTS';
export const reportQueueKey = (count: number, bookId: string): ItemKey => ({
  pk: REPORTS_PK,
  sk: `${String(999_999 - Math.min(count, 999_999)).padStart(6, '0')}#${bookId}`,
});

// ---------------------------------------------------------------------------------------------
// Mail
// ---------------------------------------------------------------------------------------------

/** An address SES reported as hard-bouncing or complaining: no more mail to it (lib/mail). */
export const suppressionKey = (normalisedEmail: string): ItemKey => ({
  pk: `SUPPRESSED#${normalisedEmail}`,
  sk: 'SUPPRESSED',
});

// ---------------------------------------------------------------------------------------------
// Privacy: account deletions
// ---------------------------------------------------------------------------------------------

/**
 * An account deletion still in progress: `DELETION#<userId>` / `DELETION` with its phase and the
 * position reached, on gsi1 `DELETIONS` / `<requestedAt>#<userId>` so a scheduled run finds the
 * unfinished ones. Deleted when the deletion is done.
 */
export const ACCOUNT_DELETIONS_PK = 'DELETIONS';
export const accountDeletionKey = (userId: string): ItemKey => ({ pk: `DELETION#${userId}`, sk: 'DELETION' });
export const accountDeletionIndex = (requestedAt: string, userId: string) => ({
  gsi1pk: ACCOUNT_DELETIONS_PK,
  gsi1sk: timeSortKey(requestedAt, userId),
});

// ---------------------------------------------------------------------------------------------
// Conversations (docs/conversations.md)
// ---------------------------------------------------------------------------------------------

/**
 * A conversation between two students: `CONV#<conversationId>` / `META` (its participants, their
 * first names and a `version` moved by every message, the ETag of the thread). The id is
 * deterministic per pair (lib/db/conversations.ts `conversationIdOf`), so two people have one thread.
 */
export const CONVERSATION_META_SK = 'META';
export const conversationPartition = (conversationId: string): string => `CONV#${conversationId}`;
export const conversationKey = (conversationId: string): ItemKey => ({
  pk: conversationPartition(conversationId),
  sk: CONVERSATION_META_SK,
});
/** One message of a conversation: `CONV#<conversationId>` / `MSG#<ulid>`, oldest first by ULID. */
export const MESSAGE_SK_PREFIX = 'MSG#';
export const messageKey = (conversationId: string, messageId: string): ItemKey => ({
  pk: conversationPartition(conversationId),
  sk: `${MESSAGE_SK_PREFIX}${messageId}`,
});
/**
 * A participant's inbox entry of one conversation: `USER#<uid>` / `CONV#<conversationId>`, with the
 * other side, the book, the last message and the unread count; gsi1 `INBOX#<uid>` /
 * `<lastActivityAt>#<conversationId>` lists the user's conversations by last activity.
 */
export const inboxEntryKey = (userId: string, conversationId: string): ItemKey => ({
  pk: userPartition(userId),
  sk: `CONV#${conversationId}`,
});
export const inboxPk = (userId: string): string => `INBOX#${userId}`;
export const inboxIndex = (userId: string, lastActivityAt: string, conversationId: string) => ({
  gsi1pk: inboxPk(userId),
  gsi1sk: timeSortKey(lastActivityAt, conversationId),
});
/** Sort-key prefix of the users one user blocks (in the blocker's partition). */
export const BLOCK_SK_PREFIX = 'BLOCK#';
/** One user blocking another: `USER#<blocker>` / `BLOCK#<blocked>`. */
export const blockKey = (blockerId: string, blockedId: string): ItemKey => ({
  pk: userPartition(blockerId),
  sk: `${BLOCK_SK_PREFIX}${blockedId}`,
});
/**
 * A participant's report of one message: `CONV#<conversationId>` / `REPORT#<messageId>#<reporterId>`
 * (one per user and message), and its entry in the admins' queue of reported messages,
 * `MSGREPORTS` / `<at>#<conversationId>#<messageId>#<reporterId>` (newest last; read backwards).
 */
export const messageReportKey = (conversationId: string, messageId: string, reporterId: string): ItemKey => ({
  pk: conversationPartition(conversationId),
  sk: `REPORT#${messageId}#${reporterId}`,
});
export const MESSAGE_REPORTS_PK = 'MSGREPORTS';
export const messageReportQueueKey = (
  at: string,
  conversationId: string,
  messageId: string,
  reporterId: string,
): ItemKey => ({
  pk: MESSAGE_REPORTS_PK,
  sk: `${at}#${conversationId}#${messageId}#${reporterId}`,
});
/** When a user was last e-mailed about new messages in one conversation: `USER#<uid>` / `CONVMAIL#<conversationId>`. */
export const conversationMailKey = (userId: string, conversationId: string): ItemKey => ({
  pk: userPartition(userId),
  sk: `CONVMAIL#${conversationId}`,
});
/** Whether a key (e.g. of a stream record) is a message's. */
export const isMessageKey = (key: Record<string, unknown>): boolean =>
  String(key.pk).startsWith('CONV#') && String(key.sk).startsWith(MESSAGE_SK_PREFIX);

// ---------------------------------------------------------------------------------------------
// Hand-overs (docs/handover.md)
// ---------------------------------------------------------------------------------------------

/**
 * A hand-over point of a campus, with its weekly opening hours: `HPOINT#<pointId>` / `HPOINT`;
 * gsi1 `HPOINTS#<campus>` / `<lower-cased name>#<pointId>` lists a campus's points by name.
 */
export const handoverPointKey = (pointId: string): ItemKey => ({ pk: `HPOINT#${pointId}`, sk: 'HPOINT' });
export const handoverPointsPk = (campus: string): string => `HPOINTS#${campus}`;
export const handoverPointIndex = (campus: string, name: string, pointId: string) => ({
  gsi1pk: handoverPointsPk(campus),
  gsi1sk: `${name.toLowerCase()}#${pointId}`,
});

/**
 * The one hand-over of one seller's books in one order: `ORDER#<orderId>` / `HANDOVER#<sellerId>`
 * (beside the order, so the order's hand-overs are one Query of its partition). Its slot id is
 * `<orderId>_<sellerId>`. While agreed it is on gsi1 `HANDOVERS#<day>` and gsi2
 * `HANDOVERS#<pointId>#<day>`, each `<at>#<slot id>` (day: the slot's date at its point), the
 * admins' "today's hand-overs" and the day-before reminder.
 */
export const HANDOVER_SK_PREFIX = 'HANDOVER#';
export const handoverKey = (orderId: string, sellerId: string): ItemKey => ({
  pk: `ORDER#${orderId}`,
  sk: `${HANDOVER_SK_PREFIX}${sellerId}`,
});
export const orderPartition = (orderId: string): string => `ORDER#${orderId}`;
export const handoverSlotId = (orderId: string, sellerId: string): string => `${orderId}_${sellerId}`;
/** The key of a slot id (`<orderId>_<sellerId>`), or null when it is not one. */
export const handoverKeyOfSlot = (slotId: string): ItemKey | null => {
  const [orderId, sellerId, extra] = slotId.split('_');
  return orderId && sellerId && extra === undefined ? handoverKey(orderId, sellerId) : null;
};
export const handoversOfDayPk = (day: string): string => `HANDOVERS#${day}`;
export const handoversOfPointDayPk = (pointId: string, day: string): string => `HANDOVERS#${pointId}#${day}`;
export const agreedHandoverIndexes = (h: {
  orderId: string;
  sellerId: string;
  pointId: string;
  day: string;
  at: string;
}) => {
  const sk = timeSortKey(h.at, handoverSlotId(h.orderId, h.sellerId));
  return {
    gsi1pk: handoversOfDayPk(h.day),
    gsi1sk: sk,
    gsi2pk: handoversOfPointDayPk(h.pointId, h.day),
    gsi2sk: sk,
  };
};
