import { PageQuery } from '#lib/dashboard/schemas.ts';
import { http, page } from '#lib/http/index.ts';
import { getReports, ReportedBooks } from '#lib/moderation/reports.ts';

/** GET /api/dashboard/getReports: reported books with their reports, most reported first (admin). */
export const handler = http(
  {
    auth: 'required',
    role: 'admin',
    query: PageQuery,
    response: ReportedBooks,
    paged: true,
    errors: [403],
    summary: 'The moderation queue: reported books, most reported first',
  },
  async ({ query }) => {
    const result = await getReports(query.limit, query.cursor);
    return page(result.items, result.next);
  },
);
