import { AdminUser, UserIdBody } from '#lib/admin/schemas.ts';
import { revokeAdmin } from '#lib/admin/users.ts';
import { http } from '#lib/http/index.ts';

/** PUT /api/dashboard/revokeAdmin: an admin becomes a user again (1 -> 0) (owner). */
export const handler = http(
  {
    auth: 'required',
    role: 2,
    body: UserIdBody,
    response: AdminUser,
    errors: [403, 404, 409],
    summary: "Revoke a user's admin role (1 -> 0)",
  },
  async ({ body, principal }) => revokeAdmin(principal.userId, body.userId),
);
