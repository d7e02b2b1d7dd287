/** The dashboard's server state: each tab's query, all under `keys.dashboard`. */
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { paths } from '#web/api.gen.ts';
import { api, call } from '#web/api.ts';
import { keys, read } from '#web/queries.ts';

/** What an administrator's action changes: every dashboard tab, and the books students see. */
export const DASHBOARD_CHANGES = [keys.dashboard, keys.books] as const;

export const queueQuery = (status: 1 | 2 | 3) =>
  read([...keys.dashboard, 'queue', status], () =>
    call(
      api.GET('/api/dashboard/getBooksWithStatus/{status}', { params: { path: { status: String(status) } } }),
    ),
  );

/** The agreed hand-overs of one day (`YYYY-MM-DD`), every point. */
export const handoversQuery = (day: string) =>
  read([...keys.dashboard, 'handovers', day], () =>
    call(api.GET('/api/dashboard/getHandovers', { params: { query: { day, limit: '100' } } })),
  );

export const dashboardOrdersQuery = read([...keys.dashboard, 'orders'], () =>
  call(api.GET('/api/dashboard/getOrders')),
);

export const reportsQuery = read([...keys.dashboard, 'reports'], () =>
  call(api.GET('/api/dashboard/getReports')),
);

export const messageReportsQuery = read([...keys.dashboard, 'messageReports'], () =>
  call(api.GET('/api/dashboard/getMessageReports')),
);

/** The totals and the last 12 weeks of a campus domain (empty: every campus). */
export const statisticsQuery = (campus: string) =>
  read([...keys.dashboard, 'statistics', campus], () =>
    call(
      api.GET('/api/dashboard/getStatistics', {
        params: { query: { weeks: '12', ...(campus ? { campus } : {}) } },
      }),
    ),
  );

/** The users found by a search (by e-mail or name), or the first page of users without one. */
export const usersQuery = (query: string) =>
  read([...keys.dashboard, 'users', query], () =>
    query
      ? call(api.GET('/api/dashboard/findUsers', { params: { query: { query } } }))
      : call(api.GET('/api/dashboard/getUsers')),
  );

/** What the audit log is narrowed to: who acted, what they did, from and to which day (`YYYY-MM-DD`). */
export type AuditFilter = NonNullable<paths['/api/dashboard/getAuditLog']['get']['parameters']['query']>;

export const auditQuery = (filter: AuditFilter) =>
  read([...keys.dashboard, 'audit', filter], () =>
    call(api.GET('/api/dashboard/getAuditLog', { params: { query: filter } })),
  );

/**
 * One conversation as an admin reads it, a page at a time (newest first; `next` opens older ones).
 * Every page read is audited by the service: it is read each time the page opens (what is shown
 * always has its audit entry), never polled.
 */
export const adminConversationQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: [...keys.dashboard, 'conversation', id],
    queryFn: async ({ pageParam }) => {
      const r = await api.GET('/api/dashboard/getConversation/{conversationId}', {
        params: { path: { conversationId: id }, query: pageParam ? { cursor: pageParam } : {} },
      });
      return { thread: await call(Promise.resolve(r)), next: r.data?.next ?? null };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
