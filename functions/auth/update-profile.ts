import { updateProfile } from '#lib/accounts/profile.ts';
import { UpdateProfileBody, User } from '#lib/accounts/schemas.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/auth/updateProfile: changes the fields sent; 200 with the user. */
export const handler = http(
  {
    body: UpdateProfileBody,
    response: User,
    summary: 'Change profile fields of the caller',
  },
  async ({ body, principal }) => updateProfile(principal.userId, body),
);
