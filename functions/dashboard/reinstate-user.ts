import { moderationAction } from '#functions/dashboard/route-kinds.ts';
import { ReinstateBody, reinstateUser, SuspensionAnswer } from '#lib/moderation/suspension.ts';

/** PUT /api/dashboard/reinstateUser: lifts a suspension; the books stay unlisted (admin). */
export const handler = moderationAction(
  { body: ReinstateBody, response: SuspensionAnswer, summary: 'Reinstate a suspended user (audited)' },
  async (admin, body) => reinstateUser(admin.userId, body.userId),
);
