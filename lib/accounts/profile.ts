/**
 * The caller's own account: read it, change profile fields, and the owner bootstrap.
 */
import { getUser, getUserIdByEmail, updateProfile as saveProfile, setPermissionType } from '#lib/db/users.ts';
import { Conflict, NotFound } from '#lib/errors.ts';
import { normaliseEmail } from './rules.ts';
import { type ProfileUpdate, toUser, type User } from './schemas.ts';

/** GET /api/user/getUserData. */
export async function getUserData(userId: string): Promise<User> {
  const user = await getUser(userId);
  if (!user) throw new NotFound('No such user.');
  return toUser(user);
}

/** POST /api/auth/updateProfile: changes only the fields sent; returns the user. */
export async function updateProfile(userId: string, changes: ProfileUpdate): Promise<User> {
  const user = await saveProfile(userId, changes);
  if (!user) throw new NotFound('No such user.');
  return toUser(user);
}

/** Makes the user with this address an owner (permissionType 2): scripts/promote-owner.ts. */
export async function promoteOwner(emailAddress: string): Promise<User> {
  const userId = await getUserIdByEmail(normaliseEmail(emailAddress));
  const user = userId ? await setPermissionType(userId, 2) : null;
  if (!user) throw new NotFound(`No confirmed account has the address ${emailAddress.trim()}.`);
  return toUser(user);
}

/**
 * Makes the owner with this address an admin again (2 -> 1): `npm run promote-owner -- --revoke`,
 * the operator's step before an owner leaves (an owner cannot delete their own account).
 */
export async function revokeOwner(emailAddress: string): Promise<User> {
  const userId = await getUserIdByEmail(normaliseEmail(emailAddress));
  const user = userId ? await getUser(userId) : null;
  if (!userId || !user) throw new NotFound(`No confirmed account has the address ${emailAddress.trim()}.`);
  if (user.permissionType !== 2)
    throw new Conflict(`${user.emailAddress} is not an owner.`, undefined, 'NOT_OWNER');
  const updated = await setPermissionType(userId, 1);
  if (!updated) throw new NotFound(`No confirmed account has the address ${emailAddress.trim()}.`);
  return toUser(updated);
}
