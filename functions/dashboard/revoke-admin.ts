import { AdminUser, UserIdBody } from '#lib/dashboard/schemas.ts';
import { revokeAdmin } from '#lib/dashboard/users.ts';
import { http } from '#lib/http/index.ts';

/** PUT /api/dashboard/revokeAdmin: an admin becomes a user again (1 -> 0) (owner). */
export const handler = http(
  {
    role: 'owner',
    body: UserIdBody,
    response: AdminUser,
    errors: [404, 409],
    summary: "Revoke a user's admin role (1 -> 0)",
  },
  async ({ body, principal }) => revokeAdmin(principal.userId, body.userId),
);
