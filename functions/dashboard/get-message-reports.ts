import { MessageReport, ReportsQuery } from '#lib/conversations/schemas.ts';
import { getMessageReports } from '#lib/conversations/service.ts';
import { http } from '#lib/http/index.ts';
import * as z from '#lib/zod.ts';

/** GET /api/dashboard/getMessageReports: reported messages, newest first (admin). */
export const handler = http(
  {
    role: 'admin',
    query: ReportsQuery,
    response: z.array(MessageReport),
    paged: true,
    summary: 'The queue of reported messages, newest first; open one with getConversation',
  },
  async ({ query }) => getMessageReports(query),
);
