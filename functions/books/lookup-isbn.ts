import { lookupIsbn } from '#lib/books/isbn-lookup.ts';
import { IsbnLookup, IsbnParams } from '#lib/books/lookup-schemas.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/books/lookupIsbn/{isbn}: title, authors, edition and cover of an ISBN, and what copies sold for. */
export const handler = http(
  {
    params: IsbnParams,
    response: IsbnLookup,
    errors: [429],
    summary:
      'The book an ISBN-10/13 names (Open Library, cached 30 days; book null when unknown or the source is unavailable) and a price hint from 3 completed sales on',
  },
  async ({ params, principal }) => lookupIsbn(principal, params.isbn),
);
