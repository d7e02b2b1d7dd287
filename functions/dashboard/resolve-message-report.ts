import { moderationAction } from '#functions/dashboard/route-kinds.ts';
import { ResolvedMessageReport, ResolveMessageReportBody } from '#lib/conversations/schemas.ts';
import { resolveMessageReport } from '#lib/conversations/service.ts';

/** POST /api/dashboard/resolveMessageReport: close a report of a message, dismissed or handled (admin). */
export const handler = moderationAction(
  {
    body: ResolveMessageReportBody,
    response: ResolvedMessageReport,
    summary: 'Close a report of a message: dismiss it, or mark it handled (audited); it leaves the queue',
  },
  async (admin, body) => resolveMessageReport(admin.userId, body),
);
