/** The main navigation: the student's pages with the unread counts and the cart's count, the dashboard for administrators. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { logout as endSession } from '#web/api.ts';
import { cartQuery, conversationsQuery, keys, levelQuery, notificationsQuery } from '#web/queries.ts';
import { Link, navigate, useLocation } from '#web/router.tsx';
import { useSession } from '#web/session.ts';

const STUDENT_LINKS = [
  ['/sell', 'Sell'],
  ['/listings', 'My listings'],
  ['/requests', 'Requests'],
  ['/saved', 'Saved'],
  ['/cart', 'Cart'],
  ['/orders', 'Orders'],
  ['/messages', 'Messages'],
  ['/notifications', 'Notifications'],
  ['/settings', 'Settings'],
] as const;

export function Nav() {
  const session = useSession();
  const { path } = useLocation();
  const client = useQueryClient();
  const level = useQuery({ ...levelQuery, enabled: Boolean(session), staleTime: Number.POSITIVE_INFINITY });
  // The same query as the notifications page: marking one read there changes the count here at once.
  const unread = useQuery({
    ...notificationsQuery,
    enabled: Boolean(session),
    select: (list) => list.filter((n) => !n.read).length,
  });
  // Unread messages: the badge is at most 30 s behind (the open thread polls every 5 s itself).
  const unreadMessages = useQuery({
    ...conversationsQuery,
    enabled: Boolean(session),
    refetchInterval: 30_000,
    select: (list) => list.reduce((n, c) => n + c.unread, 0),
  });
  // The cart's count: the same query as the cart page, which every add and remove refreshes.
  const inCart = useQuery({ ...cartQuery, enabled: Boolean(session), select: (c) => c.items.length });
  // New notifications show up at the next navigation (the first render has just fetched them).
  const shown = useRef(path);
  useEffect(() => {
    if (shown.current === path) return;
    shown.current = path;
    client.invalidateQueries({ queryKey: keys.notifications }, { cancelRefetch: false });
  }, [client, path]);
  const current = (href: string) => (path === href ? 'page' : undefined);
  const logout = () => {
    void endSession().finally(() => navigate('/login'));
  };
  return (
    <nav aria-label="Main">
      <ul>
        <li>
          <Link href="/" aria-current={current('/')}>
            Books
          </Link>
        </li>
        {session ? (
          <>
            {STUDENT_LINKS.map(([href, label]) => (
              <li key={href}>
                <Link href={href} aria-current={current(href)}>
                  {href === '/notifications' && unread.data
                    ? `${label} (${unread.data} unread)`
                    : href === '/messages' && unreadMessages.data
                      ? `${label} (${unreadMessages.data} unread)`
                      : href === '/cart' && inCart.data
                        ? `${label} (${inCart.data})`
                        : label}
                </Link>
              </li>
            ))}
            {(level.data ?? 0) >= 1 && (
              <li>
                <Link href="/dashboard" aria-current={current('/dashboard')}>
                  Dashboard
                </Link>
              </li>
            )}
            <li>
              <button type="button" className="link" onClick={logout}>
                Log out
              </button>
            </li>
          </>
        ) : (
          <>
            <li>
              <Link href="/login" aria-current={current('/login')}>
                Log in
              </Link>
            </li>
            <li>
              <Link href="/signup" aria-current={current('/signup')}>
                Sign up
              </Link>
            </li>
          </>
        )}
      </ul>
    </nav>
  );
}
