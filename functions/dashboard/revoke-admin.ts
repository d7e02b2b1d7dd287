import { roleMove } from '#functions/dashboard/route-kinds.ts';
import { revokeAdmin } from '#lib/dashboard/users.ts';

/** PUT /api/dashboard/revokeAdmin: an admin becomes a user again (1 -> 0) (owner). */
export const handler = roleMove("Revoke a user's admin role (1 -> 0)", revokeAdmin);
