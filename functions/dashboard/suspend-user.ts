import { http } from '#lib/http/index.ts';
import { SuspendBody, SuspensionAnswer, suspendUser } from '#lib/moderation/suspension.ts';

/** PUT /api/dashboard/suspendUser: the user cannot log in, tokens stop, listed books are unlisted (admin; admins only by an owner). */
export const handler = http(
  {
    role: 'admin',
    body: SuspendBody,
    response: SuspensionAnswer,
    errors: [404, 409, 503],
    summary: 'Suspend a user (audited); calling it again finishes unlisting their books',
  },
  async ({ body, principal }) => suspendUser(principal, body),
);
