import { http } from '#lib/http/index.ts';
import { ReportAnswer, ReportBookBody, reportBook } from '#lib/moderation/reports.ts';

/** POST /api/books/reportBook: report a listed book of someone else (once per user and book). */
export const handler = http(
  {
    body: ReportBookBody,
    response: ReportAnswer,
    errors: [404, 409, 503],
    summary:
      'Report a book (spam, prohibited, wrong-info, offensive, other); a second report changes nothing',
  },
  async ({ body, principal }) => reportBook(principal.userId, body),
);
