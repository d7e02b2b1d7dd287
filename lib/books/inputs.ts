/**
 * Input schemas of the listing endpoints (zod, strict: unknown fields such as id, owner, status or
 * date are refused with 400). Bounds are the contract's (API.md, "Validation").
 */

import { CursorParam } from '#lib/table/cursor.ts';
import { CAMPUS_PATTERN } from '#lib/values/campus.ts';
import { CONDITION_GRADES, type ConditionGrade, parseGrade } from '#lib/values/condition.ts';
import { isMoney, MONEY_PATTERN, parseMoney, toCents } from '#lib/values/money.ts';
import { IntParam } from '#lib/values/params.ts';
import * as z from '#lib/zod.ts';
import { COVER_URL_MESSAGE, isCoverUrl, MAX_COVER_URL_LENGTH } from './cover-url.ts';
import { toIsbn13 } from './isbn.ts';
import { normaliseCourse } from './text.ts';

/** Single-line text: no control characters at all (names go into e-mail subjects). */
export const SINGLE_LINE = /^[^\p{Cc}]*$/u;
/** Text that may span lines: newlines, but no other control characters. */
const MULTI_LINE = /^(?:[^\p{Cc}]|[\r\n])*$/u;
const NO_CONTROL_MESSAGE = 'Control characters (including newlines) are not allowed.';

const text = (min: number, max: number) =>
  z.string().check(z.trim(), z.minLength(min), z.maxLength(max), z.regex(SINGLE_LINE, NO_CONTROL_MESSAGE));

/** A missing, null or non-number price: required, and never read as 0 (a free book is `0`, sent). */
export const PRICE_MESSAGE =
  'A price is required: a number of dollars such as 12.50, or 0 to give the book away.';

/**
 * Dollars, 0..10000, at most 2 decimals (`1e-9` and `19.999999999` are refused, never rounded),
 * turned into integer cents.
 */
export const Price = z.pipe(
  z
    // the schema's own message is for a missing or non-number price only: a number out of range says so
    .number({ error: (issue) => (issue.code === 'invalid_type' ? PRICE_MESSAGE : undefined) })
    .check(
      z.gte(0, 'A price cannot be negative: 0 gives the book away.'),
      z.lte(10_000, 'A price is at most $10,000.'),
      z.refine(isMoney, 'At most 2 decimals.'),
    ),
  z.transform(toCents),
);

/** A money parameter of a query string (`^\d{1,5}(\.\d{1,2})?$`), as integer cents. */
export const MoneyParam = z.pipe(
  z.string().check(z.regex(MONEY_PATTERN, 'An amount in dollars with at most 2 decimals, e.g. 12.50.')),
  z.transform(parseMoney),
);

/** One of the condition grades (case-insensitive, spaces for hyphens); anything else lists them. */
export const Condition = z.pipe(
  z.string(),
  z.transform((s, ctx) => {
    const grade = parseGrade(s);
    if (!grade) {
      ctx.issues.push({
        code: 'custom',
        message: `Condition must be one of: ${CONDITION_GRADES.join(', ')}.`,
        input: s,
      });
      return z.NEVER;
    }
    return grade;
  }),
);

/** An ISBN-10 or -13 with a valid check digit (hyphens and spaces ignored), stored as its ISBN-13. */
export const Isbn = z.pipe(
  z.string().check(z.maxLength(40)),
  z.transform((s, ctx) => {
    const isbn = toIsbn13(s);
    if (!isbn) {
      ctx.issues.push({ code: 'custom', message: 'Not a valid ISBN-10 or ISBN-13 (check digit).', input: s });
      return z.NEVER;
    }
    return isbn;
  }),
);

export const Name = text(1, 200);
export const Edition = z.number().check(z.int(), z.gte(1), z.lte(100));
export const Course = text(1, 40).check(
  z.refine((c) => /[\p{L}\p{N}]/u.test(c), 'A course code needs letters or digits.'),
  z.refine((c) => Buffer.byteLength(normaliseCourse(c), 'utf8') <= 64, 'This course code is too long.'),
);
export const Author = text(1, 200);
export const Comments = z
  .string()
  .check(
    z.trim(),
    z.maxLength(1000),
    z.regex(MULTI_LINE, 'Control characters other than newlines are not allowed.'),
  );
/** The ISBN lookup's cover (./cover-url.ts): Open Library's cover host only, in its one URL form. */
export const CoverUrl = z
  .string()
  .check(z.maxLength(MAX_COVER_URL_LENGTH, COVER_URL_MESSAGE), z.refine(isCoverUrl, COVER_URL_MESSAGE));
export const BookId = z.string().check(z.minLength(1), z.maxLength(64));

/** `comments` or `Comments` (the old clients' spelling), not both. */
const oneComments = <T extends { comments?: string | undefined; Comments?: string | undefined }>(
  b: T,
  ctx: z.core.$RefinementCtx,
) => {
  if (b.comments !== undefined && b.Comments !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['Comments'], message: 'Send `comments` or `Comments`, not both.' });
  }
};

export const PostBookBody = z.pipe(
  z
    .strictObject({
      name: Name,
      edition: Edition,
      course: Course,
      price: Price,
      condition: Condition,
      author: z.optional(z.nullable(Author)),
      comments: z.optional(Comments),
      Comments: z.optional(Comments),
      ISBN: z.optional(z.nullable(Isbn)),
      /** the looked-up cover, shown as the book's picture until it has photos */
      coverUrl: z.optional(z.nullable(CoverUrl)),
    })
    .check(z.superRefine(oneComments)),
  z.transform(({ Comments: legacy, comments, ISBN, price, author, coverUrl, ...rest }) => ({
    ...rest,
    priceCents: price,
    author: author ?? null,
    comments: comments ?? legacy ?? '',
    ISBN: ISBN ?? null,
    coverUrl: coverUrl ?? null,
  })),
);
export type PostBookInput = z.output<typeof PostBookBody>;

/**
 * What updateBook may change: every field of postBook (the same field schemas), none required;
 * the looked-up cover only comes off (a cover is only ever set by postBook).
 */
const UPDATABLE = [
  'name',
  'edition',
  'course',
  'ISBN',
  'author',
  'price',
  'condition',
  'comments',
  'coverUrl',
] as const;

export const UpdateBookBody = z.pipe(
  z
    .strictObject({
      bookId: BookId,
      name: z.optional(Name),
      edition: z.optional(Edition),
      course: z.optional(Course),
      /** null takes the ISBN off */
      ISBN: z.optional(z.nullable(Isbn)),
      price: z.optional(Price),
      condition: z.optional(Condition),
      /** null takes the author off */
      author: z.optional(z.nullable(Author)),
      comments: z.optional(Comments),
      Comments: z.optional(Comments),
      /** null takes the looked-up cover off (a cover is only ever set by postBook) */
      coverUrl: z.optional(z.null()),
    })
    .check(
      z.superRefine(oneComments),
      z.superRefine((b, ctx) => {
        if (UPDATABLE.every((k) => b[k] === undefined) && b.Comments === undefined)
          ctx.addIssue({
            code: 'custom',
            path: [],
            message: `Send at least one of ${UPDATABLE.join(', ')}.`,
          });
      }),
    ),
  z.transform(({ Comments: legacy, comments, price, ...rest }) => ({
    ...rest,
    priceCents: price,
    comments: comments ?? legacy,
  })),
);
export type UpdateBookInput = z.output<typeof UpdateBookBody>;

export const DeleteBookBody = z.strictObject({ bookId: BookId, permanent: z.optional(z.boolean()) });
export const BookIdBody = z.strictObject({ bookId: BookId });

const intString = IntParam;

export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 40;

/** `skip` stops at 2,000 (the contract): deeper paging uses getAllBooks' cursor, so a skip reads a bounded number of index entries. */
export const MAX_SKIP = 2000;
export const NoTokenParams = z.strictObject({ limit: intString(1, MAX_PAGE), skip: intString(0, MAX_SKIP) });

export const PageQuery = z.strictObject({
  limit: z.optional(intString(1, MAX_PAGE)),
  cursor: z.optional(CursorParam),
});

/** `?campus=`: a campus domain (`uni.edu`) or `all`, any case (API.md, Additions, "Campus scoping"). */
export const CampusParam = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.regex(CAMPUS_PATTERN, 'A campus domain such as uni.edu, or all.'));

/** `?condition=`: one or more grades (repeated, which arrives comma-joined, or comma-separated). */
export const ConditionsParam = z.pipe(
  z.string(),
  z.transform((s, ctx) => {
    const grades = s.split(',').map(parseGrade);
    if (grades.some((g) => g === null)) {
      ctx.issues.push({
        code: 'custom',
        message: `Condition must be one of: ${CONDITION_GRADES.join(', ')}.`,
        input: s,
      });
      return z.NEVER;
    }
    return [...new Set(grades as ConditionGrade[])].sort();
  }),
);

/** The orders a listing or a search can be read in. */
export const SORTS = ['newest', 'price-asc', 'price-desc'] as const;
export type Sort = (typeof SORTS)[number];

/** A page of books: cursor paging plus campus, filters and sort (getAllBooks, both searches). */
export const BrowseQuery = z.extend(PageQuery, {
  campus: z.optional(CampusParam),
  condition: z.optional(ConditionsParam),
  minPrice: z.optional(MoneyParam),
  maxPrice: z.optional(MoneyParam),
  sort: z.optional(z.enum(SORTS)),
});
export type BrowseQuery = z.output<typeof BrowseQuery>;

/** The orders a search can be read in: relevance (the default) and a listing's. */
export const SEARCH_SORTS = ['relevance', ...SORTS] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/**
 * A search page: as a listing's (campus, filters, newest first or by price), and by relevance,
 * the default (docs/browsing.md, "Search").
 */
export const SearchQuery = z.extend(BrowseQuery, { sort: z.optional(z.enum(SEARCH_SORTS)) });
export type SearchQuery = z.output<typeof SearchQuery>;

/** getBooksNoToken's query: only the campus. */
export const CampusQuery = z.strictObject({ campus: z.optional(CampusParam) });

export const SearchParams = z.strictObject({
  query: z.string().check(z.minLength(1), z.maxLength(100), z.regex(SINGLE_LINE, NO_CONTROL_MESSAGE)),
});
