import { UserList, UsersQuery } from '#lib/dashboard/schemas.ts';
import { getUsersPage } from '#lib/dashboard/users.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/dashboard/getUsers: every user, oldest first, a page at a time (admin). */
export const handler = http(
  {
    role: 'admin',
    query: UsersQuery,
    response: UserList,
    paged: true,
    summary: 'List users',
  },
  async ({ query }) => getUsersPage(query.limit, query.cursor),
);
