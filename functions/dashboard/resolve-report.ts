import { moderationAction } from '#functions/dashboard/route-kinds.ts';
import { ResolveAnswer, ResolveReportBody, resolveReport } from '#lib/moderation/reports.ts';

/** POST /api/dashboard/resolveReport: dismiss the reports, or unlist the book (0 -> 5) telling its owner why (admin). */
export const handler = moderationAction(
  {
    body: ResolveReportBody,
    response: ResolveAnswer,
    summary: 'Resolve the reports of a book: dismiss, or unlist it (audited)',
  },
  async (admin, body) => resolveReport(admin.userId, body),
);
