/** The main navigation: the student's pages with the unread count, the dashboard for administrators. */
import { api, call } from '#web/api.ts';
import { Link, navigate, useLocation } from '#web/router.tsx';
import { setSession, useSession } from '#web/session.ts';
import { useLoad } from '#web/ui/hooks.ts';

const STUDENT_LINKS = [
  ['/sell', 'Sell'],
  ['/listings', 'My listings'],
  ['/requests', 'Requests'],
  ['/cart', 'Cart'],
  ['/orders', 'Orders'],
  ['/notifications', 'Notifications'],
  ['/settings', 'Settings'],
] as const;

export function Nav() {
  const session = useSession();
  const { path } = useLocation();
  const level = useLoad(
    async () => (session ? (await call(api.GET('/api/dashboard/permissionLevel'))).permissionType : 0),
    [session?.token],
  );
  const unread = useLoad(
    async () =>
      session
        ? (await call(api.GET('/api/user/getNotifications', { params: { query: { limit: '50' } } }))).filter(
            (n) => !n.read,
          ).length
        : 0,
    [session?.token, path],
  );
  const current = (href: string) => (path === href ? 'page' : undefined);
  const logout = () => {
    setSession(null);
    navigate('/login');
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
                  {href === '/notifications' && unread.data ? `${label} (${unread.data} unread)` : label}
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
