/** The answer of GET /api/books/lookupIsbn/{isbn} (lib/books/isbn-lookup.ts). */
import * as z from '#lib/zod.ts';

export const LookedUpBook = z.strictObject({
  title: z.string(),
  authors: z.array(z.string()),
  /** the edition as an integer when the source's text could be read ("2nd ed." -> 2), else null */
  edition: z.nullable(z.number().check(z.int(), z.gte(1), z.lte(100))),
  publisher: z.nullable(z.string()),
  year: z.nullable(z.number().check(z.int())),
  coverUrl: z.nullable(z.string().check(z.url())),
});

export const PriceHint = z.strictObject({
  count: z.number().check(z.int(), z.gte(3), z.lte(50)),
  lowCents: z.number().check(z.int(), z.gte(0)),
  highCents: z.number().check(z.int(), z.gte(0)),
  medianCents: z.number().check(z.int(), z.gte(0)),
  scope: z.enum(['campus', 'all']),
});

export const IsbnLookup = z.strictObject({
  isbn13: z.string().check(z.regex(/^97[89]\d{10}$/)),
  /** null: the source does not know this ISBN, or (source 'unavailable') could not be asked */
  book: z.nullable(LookedUpBook),
  /** where `book` comes from: the cache, Open Library just now, or nowhere (source slow or down) */
  source: z.enum(['cache', 'openLibrary', 'unavailable']),
  /** what copies of this ISBN sold for (from 3 completed sales on), else null */
  priceHint: z.nullable(PriceHint),
});
export type IsbnLookup = z.infer<typeof IsbnLookup>;

/** The path parameter: checked (check digit) by the lookup itself, for a message in plain words. */
export const IsbnParams = z.strictObject({ isbn: z.string().check(z.minLength(1), z.maxLength(40)) });
