import { getBooksWithStatus } from '#lib/dashboard/listings.ts';
import { HandOverBookList, PageQuery, StatusParams } from '#lib/dashboard/schemas.ts';
import { http, page } from '#lib/http/index.ts';

/** GET /api/dashboard/getBooksWithStatus/{status}: books of one status with seller and buyer contacts (admin). */
export const handler = http(
  {
    auth: 'required',
    role: 'admin',
    params: StatusParams,
    query: PageQuery,
    response: HandOverBookList,
    paged: true,
    errors: [403],
    summary: 'Books of one status, with contact details for the hand-over',
  },
  async ({ params, query }) => {
    const result = await getBooksWithStatus(params.status, query.limit, query.cursor);
    return page(result.books, result.next);
  },
);
