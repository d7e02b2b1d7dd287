import { created, http } from '#lib/http/index.ts';
import { BookRequest, RequestBookBody, requestBook } from '#lib/matching/requests.ts';

/** POST /api/books/requestBook: ask for a book; the stream consumer matches it against listed books. */
export const handler = http(
  {
    body: RequestBookBody,
    response: BookRequest,
    status: 201,
    errors: [409],
    summary: 'Request a wanted book (matched automatically against listed books)',
  },
  async ({ body, principal }) => created(await requestBook(principal, body)),
);
