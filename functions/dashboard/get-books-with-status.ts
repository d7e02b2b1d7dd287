import { getBooksWithStatus } from '#lib/dashboard/listings.ts';
import { HandOverBookList, PageQuery, StatusParams } from '#lib/dashboard/schemas.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/dashboard/getBooksWithStatus/{status}: books of one status with seller and buyer contacts (admin). */
export const handler = http(
  {
    role: 'admin',
    params: StatusParams,
    query: PageQuery,
    response: HandOverBookList,
    paged: true,
    summary: 'Books of one status, with contact details for the hand-over',
  },
  async ({ params, query }) => getBooksWithStatus(params.status, query.limit, query.cursor),
);
