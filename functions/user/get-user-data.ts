import { getUserData } from '#lib/accounts/profile.ts';
import { User } from '#lib/accounts/schemas.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/user/getUserData: the caller's user (never secrets). */
export const handler = http(
  { response: User, errors: [404], summary: "The caller's account" },
  async ({ principal }) => getUserData(principal.userId),
);
