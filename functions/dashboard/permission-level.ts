import { PermissionLevel } from '#lib/dashboard/schemas.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/dashboard/permissionLevel: the caller's role, as stored on their user record. */
export const handler = http(
  { response: PermissionLevel, summary: "The caller's permission level" },
  async ({ principal }) => ({ permissionType: principal.permissionType }),
);
