import { AdminUser, UserIdBody } from '#lib/dashboard/schemas.ts';
import { makeAdmin } from '#lib/dashboard/users.ts';
import { http } from '#lib/http/index.ts';

/** PUT /api/dashboard/makeAdmin: a user becomes an admin (0 -> 1) (owner). */
export const handler = http(
  {
    role: 'owner',
    body: UserIdBody,
    response: AdminUser,
    errors: [404, 409],
    summary: 'Make a user an admin (0 -> 1)',
  },
  async ({ body, principal }) => makeAdmin(principal.userId, body.userId),
);
