import { http } from '#lib/http/index.ts';
import { ReinstateBody, reinstateUser, SuspensionAnswer } from '#lib/moderation/suspension.ts';

/** PUT /api/dashboard/reinstateUser: lifts a suspension; the books stay unlisted (admin). */
export const handler = http(
  {
    role: 'admin',
    body: ReinstateBody,
    response: SuspensionAnswer,
    errors: [404, 409, 503],
    summary: 'Reinstate a suspended user (audited)',
  },
  async ({ body, principal }) => reinstateUser(principal.userId, body.userId),
);
