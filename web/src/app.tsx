/** The shell: header navigation, the page for the current path, footer. */
import { lazy, Suspense, useEffect, useRef, useSyncExternalStore } from 'react';
import { api, call } from '#web/api.ts';
import { ConfirmPage, ForgotPage, LoginPage, ResetPage, SignupPage } from '#web/pages/auth.tsx';
import {
  BookPage,
  BrowsePage,
  EmailConfirmedPage,
  NotFound,
  PrivacyPage,
  TermsPage,
} from '#web/pages/public.tsx';
import {
  CartPage,
  ListingsPage,
  NotificationsPage,
  OrdersPage,
  RequestsPage,
  SellPage,
  SettingsPage,
} from '#web/pages/student.tsx';
import { Link, navigate, useLocation } from '#web/router.tsx';
import { getSession, setSession, subscribeSession } from '#web/session.ts';
import { Loading, useLoad } from '#web/ui.tsx';

// The dashboard is for a few administrators, the account pages are opened rarely: their code is
// loaded only when opened.
const DashboardPage = lazy(() => import('#web/pages/dashboard.tsx'));
const account = () => import('#web/pages/account.tsx');
const PreferencesPage = lazy(() => account().then((m) => ({ default: m.PreferencesPage })));
const UnsubscribePage = lazy(() => account().then((m) => ({ default: m.UnsubscribePage })));
const MyDataPage = lazy(() => account().then((m) => ({ default: m.MyDataPage })));
const DeleteAccountPage = lazy(() => account().then((m) => ({ default: m.DeleteAccountPage })));
const OrderPage = lazy(() => account().then((m) => ({ default: m.OrderPage })));

export function useSession() {
  return useSyncExternalStore(subscribeSession, getSession);
}

/** Pages that need a session send the visitor to log in first, then back here. */
function RequireLogin({ children }: { children: React.ReactNode }) {
  const session = useSession();
  const { href } = useLocation();
  useEffect(() => {
    if (!session) navigate(`/login?next=${encodeURIComponent(href)}`, { replace: true });
  }, [session, href]);
  return session ? children : null;
}

const TITLES: Record<string, string> = {
  '/': 'Books',
  '/signup': 'Sign up',
  '/confirm': 'Confirm your account',
  '/email-confirmed': 'Account confirmed',
  '/login': 'Log in',
  '/forgot-password': 'Forgot password',
  '/reset-password': 'Choose a new password',
  '/terms': 'Terms of use',
  '/privacy': 'Privacy',
  '/sell': 'Sell a book',
  '/listings': 'My listings',
  '/requests': 'My requests and matches',
  '/cart': 'Cart',
  '/orders': 'Purchases and sales',
  '/notifications': 'Notifications',
  '/settings': 'Settings',
  '/preferences': 'E-mail preferences',
  '/my-data': 'Your data',
  '/delete-account': 'Delete your account',
  '/unsubscribe': 'Unsubscribe',
  '/dashboard': 'Dashboard',
};

/** The pages at fixed paths: open to anyone, or (`session`) after logging in. */
const PAGES: Record<string, [page: React.ComponentType, who: 'anyone' | 'session']> = {
  '/signup': [SignupPage, 'anyone'],
  '/email-confirmed': [EmailConfirmedPage, 'anyone'],
  '/login': [LoginPage, 'anyone'],
  '/forgot-password': [ForgotPage, 'anyone'],
  '/reset-password': [ResetPage, 'anyone'],
  '/terms': [TermsPage, 'anyone'],
  '/privacy': [PrivacyPage, 'anyone'],
  '/unsubscribe': [UnsubscribePage, 'anyone'],
  '/sell': [SellPage, 'session'],
  '/listings': [ListingsPage, 'session'],
  '/requests': [RequestsPage, 'session'],
  '/cart': [CartPage, 'session'],
  '/orders': [OrdersPage, 'session'],
  '/notifications': [NotificationsPage, 'session'],
  '/settings': [SettingsPage, 'session'],
  '/preferences': [PreferencesPage, 'session'],
  '/my-data': [MyDataPage, 'session'],
  '/delete-account': [DeleteAccountPage, 'session'],
  '/dashboard': [DashboardPage, 'session'],
};

function route(path: string) {
  if (path === '/') return <BrowsePage />;
  if (path.startsWith('/books/')) return <BookPage id={decodeURIComponent(path.slice('/books/'.length))} />;
  if (path === '/confirm' || path.startsWith('/confirm/')) return <ConfirmPage />;
  if (path.startsWith('/orders/'))
    return (
      <RequireLogin>
        <OrderPage id={decodeURIComponent(path.slice('/orders/'.length))} />
      </RequireLogin>
    );
  const page = PAGES[path];
  if (!page) return <NotFound />;
  const [Page, who] = page;
  return who === 'session' ? (
    <RequireLogin>
      <Page />
    </RequireLogin>
  ) : (
    <Page />
  );
}

const STUDENT_LINKS = [
  ['/sell', 'Sell'],
  ['/listings', 'My listings'],
  ['/requests', 'Requests'],
  ['/cart', 'Cart'],
  ['/orders', 'Orders'],
  ['/notifications', 'Notifications'],
  ['/settings', 'Settings'],
] as const;

function Nav() {
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

export function App() {
  const { path } = useLocation();
  const main = useRef<HTMLElement>(null);
  const title =
    TITLES[path] ??
    (path.startsWith('/books/') ? 'Book' : path.startsWith('/orders/') ? 'Order' : 'Campus Books');
  useEffect(() => {
    document.title = `${title} · Campus Books`;
  }, [title]);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header>
        <Link href="/" className="brand">
          Campus Books
        </Link>
        <Nav />
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <Suspense fallback={<Loading what="the page" />}>{route(path)}</Suspense>
      </main>
      <footer>
        <Link href="/terms">Terms of use</Link> · <Link href="/privacy">Privacy</Link>
      </footer>
    </>
  );
}
