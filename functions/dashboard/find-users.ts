import { FindUsersQuery, UserList } from '#lib/dashboard/schemas.ts';
import { findUsers } from '#lib/dashboard/users.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/dashboard/findUsers?query=: users by e-mail or name prefix, case-insensitive (admin). */
export const handler = http(
  {
    role: 'admin',
    query: FindUsersQuery,
    response: UserList,
    summary: 'Find users by e-mail or name prefix',
  },
  async ({ query }) => findUsers(query.query, query.limit),
);
