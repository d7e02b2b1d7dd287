/**
 * `/notifications`: the notifications, marked read one by one or all at once. Each names its book,
 * order or conversation and opens that page (the service's `link`); opening it marks it read.
 */
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '#web/api.ts';
import { markingRead, notificationsQuery } from '#web/queries.ts';
import { Link } from '#web/router.tsx';
import { ErrorNote } from '#web/ui/form.tsx';
import { useAction } from '#web/ui/hooks.ts';
import { When } from '#web/ui/layout.tsx';

/**
 * Marks notifications read (`ids`, else every unread one listed) in the cache at once, so the nav's
 * badge drops when the user acts, not when the service answers; then asks the service. Until it
 * answers, a refetch of the list shows them read too (`markingRead`). Afterwards the list is read
 * again: a refused call leaves them unread, as the service has them.
 */
async function markRead(client: QueryClient, ids?: string[]): Promise<void> {
  const { queryKey } = notificationsQuery;
  const marked = ids ?? (client.getQueryData(queryKey) ?? []).filter((n) => !n.read).map((n) => n.id);
  for (const id of marked) markingRead.add(id);
  await client.cancelQueries({ queryKey });
  client.setQueryData(queryKey, (list) =>
    list?.map((n) => (markingRead.has(n.id) ? { ...n, read: true } : n)),
  );
  try {
    await call(api.POST('/api/user/markNotificationsRead', { body: ids ? { ids } : {} }));
  } finally {
    for (const id of marked) markingRead.delete(id);
    void client.invalidateQueries({ queryKey });
  }
}

export function NotificationsPage() {
  // The navigation counts the unread ones from the same query: marking read updates both.
  const list = useQuery(notificationsQuery);
  const client = useQueryClient();
  // no keys to invalidate: markRead reads the list again itself (a second read would cancel it)
  const act = useAction();
  const mark = (ids?: string[]) => act.run(() => markRead(client, ids));
  // Opening one leaves this page at once, so its marking must not belong to the page: it is sent
  // directly, wherever the user goes (a failure leaves it unread, as it is).
  const markOpened = (id: string) => void markRead(client, [id]).catch(() => undefined);
  return (
    <section>
      <h1>Notifications</h1>
      <ErrorNote error={list.error ?? act.error} />
      {/* a new student learns what comes here, and where to start it */}
      {list.data?.length === 0 && (
        <p>
          No notifications yet. You hear here when a book you <Link href="/requests">asked for</Link> is
          listed, a <Link href="/saved">saved</Link> book drops in price or sells, someone writes to you, or
          an order moves on.
        </p>
      )}
      {list.data?.some((n) => !n.read) && (
        <button type="button" className="secondary" onClick={() => mark()}>
          Mark all as read
        </button>
      )}
      <ul className="notifications">
        {list.data?.map((n) => (
          <li key={n.id} className={n.read ? 'read' : 'unread'}>
            <p>
              {n.read ? '' : <strong>New: </strong>}
              <Link href={n.link} onClick={() => !n.read && markOpened(n.id)}>
                {n.message}
              </Link>{' '}
              <small>
                <When at={n.date} />
              </small>
            </p>
            {!n.read && (
              // quieter than the notification it marks: its link is what the student came for
              <button type="button" className="secondary small" onClick={() => mark([n.id])}>
                Mark as read
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
