import { getAuditLog } from '#lib/dashboard/audit.ts';
import { AuditLog, PageQuery } from '#lib/dashboard/schemas.ts';
import { http, page } from '#lib/http/index.ts';

/** GET /api/dashboard/getAuditLog: every dashboard action, newest first (admin). */
export const handler = http(
  {
    auth: 'required',
    role: 'admin',
    query: PageQuery,
    response: AuditLog,
    paged: true,
    errors: [403],
    summary: 'The audit log of dashboard actions',
  },
  async ({ query }) => {
    const result = await getAuditLog(query.limit, query.cursor);
    return page(result.entries, result.next);
  },
);
