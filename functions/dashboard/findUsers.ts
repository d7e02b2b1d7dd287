import { FindUsersQuery, UserList } from '#lib/admin/schemas.ts';
import { findUsers } from '#lib/admin/users.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/dashboard/findUsers?query=: users by e-mail or name prefix, case-insensitive (admin). */
export const handler = http(
  {
    auth: 'required',
    role: 1,
    query: FindUsersQuery,
    response: UserList,
    errors: [403],
    summary: 'Find users by e-mail or name prefix',
  },
  async ({ query }) => findUsers(query.query, query.limit),
);
