import { getAuditLog } from '#lib/dashboard/audit.ts';
import { AuditLog, AuditQuery } from '#lib/dashboard/schemas.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/dashboard/getAuditLog?actor=&action=&from=&to=: dashboard actions, newest first, with names (admin). */
export const handler = http(
  {
    role: 'admin',
    query: AuditQuery,
    response: AuditLog,
    paged: true,
    summary: 'The audit log of dashboard actions, with names, narrowed by actor, action and days',
  },
  async ({ query: { limit, cursor, ...filter } }) => getAuditLog(limit, cursor, filter),
);
