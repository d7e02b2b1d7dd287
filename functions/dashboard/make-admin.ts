import { roleMove } from '#functions/dashboard/route-kinds.ts';
import { makeAdmin } from '#lib/dashboard/users.ts';

/** PUT /api/dashboard/makeAdmin: a user becomes an admin (0 -> 1) (owner). */
export const handler = roleMove('Make a user an admin (0 -> 1)', makeAdmin);
