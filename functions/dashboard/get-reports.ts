import { PageQuery } from '#lib/dashboard/schemas.ts';
import { http } from '#lib/http/index.ts';
import { getReports, ReportedBooks } from '#lib/moderation/reports.ts';

/** GET /api/dashboard/getReports: reported books with their reports, most reported first (admin). */
export const handler = http(
  {
    role: 'admin',
    query: PageQuery,
    response: ReportedBooks,
    paged: true,
    summary: 'The moderation queue: reported books, most reported first',
  },
  async ({ query }) => getReports(query.limit, query.cursor),
);
