import { AnswerBody, Handover } from '#lib/handover/schemas.ts';
import { answerHandover } from '#lib/handover/service.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/user/answerHandover: the other side accepts or declines a proposed hand-over. */
export const handler = http(
  {
    body: AnswerBody,
    response: Handover,
    errors: [403, 404, 409],
    summary: 'Accept or decline the current hand-over proposal (the side that did not propose it)',
  },
  async ({ body, principal }) => answerHandover(principal.userId, body),
);
