import { getAuditLog } from '#lib/dashboard/audit.ts';
import { AuditLog, PageQuery } from '#lib/dashboard/schemas.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/dashboard/getAuditLog: every dashboard action, newest first (admin). */
export const handler = http(
  {
    role: 'admin',
    query: PageQuery,
    response: AuditLog,
    paged: true,
    summary: 'The audit log of dashboard actions',
  },
  async ({ query }) => getAuditLog(query.limit, query.cursor),
);
