import { UserList, UsersQuery } from '#lib/dashboard/schemas.ts';
import { getUsersPage } from '#lib/dashboard/users.ts';
import { http, page } from '#lib/http/index.ts';

/** GET /api/dashboard/getUsers: every user, oldest first, a page at a time (admin). */
export const handler = http(
  {
    auth: 'required',
    role: 'admin',
    query: UsersQuery,
    response: UserList,
    paged: true,
    errors: [403],
    summary: 'List users',
  },
  async ({ query }) => {
    const result = await getUsersPage(query.limit, query.cursor);
    return page(result.users, result.next);
  },
);
