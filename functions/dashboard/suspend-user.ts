import { moderationAction } from '#functions/dashboard/route-kinds.ts';
import { SuspendBody, SuspensionAnswer, suspendUser } from '#lib/moderation/suspension.ts';

/** PUT /api/dashboard/suspendUser: the user cannot log in, tokens stop, listed books are unlisted (admin; admins only by an owner). */
export const handler = moderationAction(
  {
    body: SuspendBody,
    response: SuspensionAnswer,
    summary: 'Suspend a user (audited); calling it again finishes unlisting their books',
  },
  async (admin, body) => suspendUser(admin, body),
);
