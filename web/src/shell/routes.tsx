/** Which page each path shows, its title, and who may open it. */
import { lazy, useEffect } from 'react';
import { loginHref, sessionEnded } from '#web/api.ts';
import { ConfirmPage, LoginPage } from '#web/features/auth/login-page.tsx';
import { ForgotPage, ResetPage } from '#web/features/auth/password-pages.tsx';
import { SignupPage } from '#web/features/auth/signup-page.tsx';
import { BookPage } from '#web/features/book/book-page.tsx';
import { BrowsePage } from '#web/features/browse/browse-page.tsx';
import { EmailConfirmedPage, NotFound, PrivacyPage, TermsPage } from '#web/features/public/plain-pages.tsx';
import { bookQuery, queryClient } from '#web/queries.ts';
import { navigate, useLocation } from '#web/router.tsx';
import { useRestoring, useSession } from '#web/session.ts';
import { Loading } from '#web/ui/layout.tsx';

// The pages a visitor lands on (the books, a book, log in and sign up) are in the first script; the
// others are loaded when first opened, so the first screen on a phone waits for less JavaScript
// (issue 32 item 7). The dashboard is for a few administrators, the account pages and one order
// are opened rarely.
const SettingsPage = lazy(() =>
  import('#web/features/account/settings-page.tsx').then((m) => ({ default: m.SettingsPage })),
);
const CartPage = lazy(() =>
  import('#web/features/cart/cart-page.tsx').then((m) => ({ default: m.CartPage })),
);
const ListingsPage = lazy(() =>
  import('#web/features/listings/listings-page.tsx').then((m) => ({ default: m.ListingsPage })),
);
const NotificationsPage = lazy(() =>
  import('#web/features/notifications/notifications-page.tsx').then((m) => ({
    default: m.NotificationsPage,
  })),
);
const OrdersPage = lazy(() =>
  import('#web/features/orders/orders-page.tsx').then((m) => ({ default: m.OrdersPage })),
);
const RequestsPage = lazy(() =>
  import('#web/features/requests/requests-page.tsx').then((m) => ({ default: m.RequestsPage })),
);
const SavedPage = lazy(() =>
  import('#web/features/saved/saved-page.tsx').then((m) => ({ default: m.SavedPage })),
);
const SellPage = lazy(() =>
  import('#web/features/sell/sell-page.tsx').then((m) => ({ default: m.SellPage })),
);
const MessagesPage = lazy(() =>
  import('#web/features/conversations/messages-page.tsx').then((m) => ({ default: m.MessagesPage })),
);
const ThreadPage = lazy(() =>
  import('#web/features/conversations/messages-page.tsx').then((m) => ({ default: m.ThreadPage })),
);
const DashboardPage = lazy(() => import('#web/features/dashboard/dashboard-page.tsx'));
const PreferencesPage = lazy(() => import('#web/features/account/preferences-page.tsx'));
const UnsubscribePage = lazy(() => import('#web/features/account/unsubscribe-page.tsx'));
const MyDataPage = lazy(() => import('#web/features/account/my-data-page.tsx'));
const DeleteAccountPage = lazy(() => import('#web/features/account/delete-account-page.tsx'));
const OrderPage = lazy(() => import('#web/features/orders/order-page.tsx'));

/** Pages that need a session send the visitor to log in first, then back here. */
function RequireLogin({ children }: { children: React.ReactNode }) {
  const session = useSession();
  // At start the session of the refresh cookie is being asked for: wait for it (an e-mailed link
  // opens signed in), then send the visitor to log in only if there is none.
  const restoring = useRestoring();
  const { href } = useLocation();
  useEffect(() => {
    // a session this browser had and the service ended: the login page says so
    if (!session && !restoring) navigate(loginHref(href, sessionEnded()), { replace: true });
  }, [session, restoring, href]);
  if (restoring && !session) return <Loading what="your session" />;
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
  '/saved': 'Saved books',
  '/orders': 'Purchases and sales',
  '/notifications': 'Notifications',
  '/messages': 'Messages',
  '/settings': 'Settings',
  '/preferences': 'E-mail preferences',
  '/my-data': 'Your data',
  '/delete-account': 'Delete your account',
  '/unsubscribe': 'Unsubscribe',
  '/dashboard': 'Dashboard',
};

/** The document title of a path's page. */
export const titleOf = (path: string): string =>
  TITLES[path] ??
  (path.startsWith('/books/')
    ? 'Book'
    : path.startsWith('/orders/')
      ? 'Order'
      : path.startsWith('/messages/')
        ? 'Conversation'
        : 'Campus Books');

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
  '/saved': [SavedPage, 'session'],
  '/orders': [OrdersPage, 'session'],
  '/notifications': [NotificationsPage, 'session'],
  '/messages': [MessagesPage, 'session'],
  '/settings': [SettingsPage, 'session'],
  '/preferences': [PreferencesPage, 'session'],
  '/my-data': [MyDataPage, 'session'],
  '/delete-account': [DeleteAccountPage, 'session'],
  '/dashboard': [DashboardPage, 'session'],
};

/** The book id of a book page's path, else undefined. */
const bookIdOf = (path: string): string | undefined =>
  path.startsWith('/books/') ? decodeURIComponent(path.slice('/books/'.length)) : undefined;

/**
 * At start, a signed-out visitor's landing page asks for its data before React renders anything:
 * the book of a book page (an e-mailed or shared link) is on its way while the app's first render
 * runs, instead of after it, so the page's content appears sooner (issue 32 item 7). A browser with a
 * session to restore asks nothing early: the answer depends on who asks (in the cart or not), and
 * the restore comes first.
 */
export function startLoading(path: string, signedOut: boolean): void {
  const bookId = bookIdOf(path);
  if (signedOut && bookId) void queryClient.prefetchQuery(bookQuery(bookId));
}

/** The page of a path. */
export function route(path: string) {
  if (path === '/') return <BrowsePage />;
  const bookId = bookIdOf(path);
  if (bookId !== undefined) return <BookPage id={bookId} />;
  if (path === '/confirm' || path.startsWith('/confirm/')) return <ConfirmPage />;
  if (path.startsWith('/orders/'))
    return (
      <RequireLogin>
        <OrderPage id={decodeURIComponent(path.slice('/orders/'.length))} />
      </RequireLogin>
    );
  if (path.startsWith('/messages/')) {
    const id = decodeURIComponent(path.slice('/messages/'.length));
    // keyed: another conversation opened from this one starts with its own message box
    return (
      <RequireLogin>
        <ThreadPage key={id} id={id} />
      </RequireLogin>
    );
  }
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
