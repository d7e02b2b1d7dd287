/**
 * `/notifications`: the notifications, marked read one by one or all at once. Each names its book,
 * order or conversation and opens that page (the service's `link`); opening it marks it read.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '#web/api.ts';
import { keys, notificationsQuery } from '#web/queries.ts';
import { Link } from '#web/router.tsx';
import { ErrorNote } from '#web/ui/form.tsx';
import { useAction } from '#web/ui/hooks.ts';

export function NotificationsPage() {
  // The navigation counts the unread ones from the same query: marking read updates both.
  const list = useQuery(notificationsQuery);
  const act = useAction(keys.notifications);
  const mark = (ids?: string[]) =>
    act.run(() => call(api.POST('/api/user/markNotificationsRead', { body: ids ? { ids } : {} })));
  // Opening one leaves this page at once, so its marking must not belong to the page: it is sent
  // directly and refreshes the list (and the nav's count) when it is done, wherever the user is.
  const client = useQueryClient();
  const markOpened = (id: string) =>
    void call(api.POST('/api/user/markNotificationsRead', { body: { ids: [id] } })).then(
      () => client.invalidateQueries({ queryKey: keys.notifications }),
      () => undefined,
    );
  return (
    <section>
      <h1>Notifications</h1>
      <ErrorNote error={list.error ?? act.error} />
      {list.data?.length === 0 && <p>No notifications.</p>}
      {list.data?.some((n) => !n.read) && (
        <button type="button" onClick={() => mark()}>
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
              <small>{new Date(n.date).toLocaleString()}</small>
            </p>
            {!n.read && (
              <button type="button" onClick={() => mark([n.id])}>
                Mark as read
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
