import { http } from '#lib/http/index.ts';
import { ResolveAnswer, ResolveReportBody, resolveReport } from '#lib/moderation/reports.ts';

/** POST /api/dashboard/resolveReport: dismiss the reports, or unlist the book (0 -> 5) telling its owner why (admin). */
export const handler = http(
  {
    role: 'admin',
    body: ResolveReportBody,
    response: ResolveAnswer,
    errors: [404, 409, 503],
    summary: 'Resolve the reports of a book: dismiss, or unlist it (audited)',
  },
  async ({ body, principal }) => resolveReport(principal.userId, body),
);
