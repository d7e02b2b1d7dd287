import { ReportMessageAnswer, ReportMessageBody } from '#lib/conversations/schemas.ts';
import { reportMessage } from '#lib/conversations/service.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/user/reportMessage: a participant reports a message of the other side to the admins. */
export const handler = http(
  {
    body: ReportMessageBody,
    response: ReportMessageAnswer,
    errors: [404, 409],
    summary:
      "Report a message of the other side of one of the caller's conversations to the admins (audited)",
  },
  async ({ body, principal }) => reportMessage(principal.userId, body),
);
