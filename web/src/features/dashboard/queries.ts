/** The dashboard's server state: each tab's query, all under `keys.dashboard`. */
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { paths } from '#web/api.gen.ts';
import { api, call } from '#web/api.ts';
import { keys, pageOf, read, readPages } from '#web/queries.ts';

/** What an administrator's action changes: every dashboard tab, and the books students see. */
export const DASHBOARD_CHANGES = [keys.dashboard, keys.books] as const;

/** A page's cursor as a query parameter (none on the first page). */
const from = (cursor: string | undefined) => (cursor ? { cursor } : {});

export const queueQuery = (status: 1 | 2 | 3) =>
  readPages([...keys.dashboard, 'queue', status], (cursor) =>
    api.GET('/api/dashboard/getBooksWithStatus/{status}', {
      params: { path: { status: String(status) }, query: from(cursor) },
    }),
  );

/** The agreed hand-overs of one day (`YYYY-MM-DD`), every point. */
export const handoversQuery = (day: string) =>
  readPages([...keys.dashboard, 'handovers', day], (cursor) =>
    api.GET('/api/dashboard/getHandovers', { params: { query: { day, limit: '100', ...from(cursor) } } }),
  );

export const dashboardOrdersQuery = readPages([...keys.dashboard, 'orders'], (cursor) =>
  api.GET('/api/dashboard/getOrders', { params: { query: from(cursor) } }),
);

export const reportsQuery = readPages([...keys.dashboard, 'reports'], (cursor) =>
  api.GET('/api/dashboard/getReports', { params: { query: from(cursor) } }),
);

export const messageReportsQuery = readPages([...keys.dashboard, 'messageReports'], (cursor) =>
  api.GET('/api/dashboard/getMessageReports', { params: { query: from(cursor) } }),
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

/** One campus's hand-over points, by name (the points tab). */
export const campusPointsQuery = (campus: string) =>
  read([...keys.dashboard, 'points', campus], () =>
    call(api.GET('/api/dashboard/getHandoverPoints', { params: { query: { campus } } })),
  );

/** The users found by a search (by e-mail or name), or the first page of users without one. */
export const usersQuery = (query: string) =>
  readPages([...keys.dashboard, 'users', query], (cursor) =>
    query
      ? api.GET('/api/dashboard/findUsers', { params: { query: { query } } })
      : api.GET('/api/dashboard/getUsers', { params: { query: from(cursor) } }),
  );

/** What the audit log is narrowed to: who acted, what they did, from and to which day (`YYYY-MM-DD`). */
export type AuditFilter = NonNullable<paths['/api/dashboard/getAuditLog']['get']['parameters']['query']>;

export const auditQuery = (filter: AuditFilter) =>
  readPages([...keys.dashboard, 'audit', filter], (cursor) =>
    api.GET('/api/dashboard/getAuditLog', { params: { query: { ...filter, ...from(cursor) } } }),
  );

/**
 * One conversation as an admin reads it, a page at a time (newest first; `next` opens older ones).
 * Every page read is audited by the service: it is read each time the page opens (what is shown
 * always has its audit entry), never polled.
 */
export const adminConversationQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: [...keys.dashboard, 'conversation', id],
    queryFn: ({ pageParam }) =>
      pageOf(
        api.GET('/api/dashboard/getConversation/{conversationId}', {
          params: { path: { conversationId: id }, query: from(pageParam ?? undefined) },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
