/**
 * The main navigation, compact enough to leave the books on a phone's first screen: the everyday
 * pages as icons with their labels, unread and cart counts as badges (the queries their pages
 * use, so an action there changes the badge at once); the other pages under "More" on a phone and
 * in a second row on a wide screen, with the dashboard for administrators.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { logout as endSession } from '#web/api.ts';
import { cartQuery, conversationsQuery, keys, levelQuery, notificationsQuery } from '#web/queries.ts';
import { Link, navigate, useLocation } from '#web/router.tsx';
import { useSession } from '#web/session.ts';
import { Icon, type IconName } from '#web/shell/icons.tsx';

/** The student's everyday pages, each an icon with its label; the badge is a count shown on it. */
const MAIN_LINKS = [
  ['/', 'Books', 'books'],
  ['/sell', 'Sell', 'sell'],
  ['/messages', 'Messages', 'messages'],
  ['/cart', 'Cart', 'cart'],
  ['/notifications', 'Notifications', 'notifications'],
] as const satisfies ReadonlyArray<readonly [string, string, IconName]>;

/** The rest, under "More" on a phone and in the row on a wide screen. */
const MORE_LINKS = [
  ['/listings', 'My listings'],
  ['/requests', 'Requests'],
  ['/saved', 'Saved'],
  ['/orders', 'Orders'],
  ['/settings', 'Settings'],
] as const;

/** A count on an icon: seen as a number on it, read after the label as "(3 unread)" or "(3)". */
interface Count {
  count: number | undefined;
  unread: boolean;
}

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
  // The cart's count: the same query as the cart page, which every add and remove refreshes. Only
  // the books still there to buy: one sold to someone else or unlisted is greyed on the cart page
  // and leaves the cart at checkout, so counting it would promise a book that cannot be bought.
  const inCart = useQuery({
    ...cartQuery,
    enabled: Boolean(session),
    select: (c) => c.items.filter((b) => b.available).length,
  });
  // New notifications show up at the next navigation (the first render has just fetched them).
  const shown = useRef(path);
  useEffect(() => {
    if (shown.current === path) return;
    shown.current = path;
    client.invalidateQueries({ queryKey: keys.notifications }, { cancelRefetch: false });
  }, [client, path]);
  const current = (href: string) => (path === href ? 'page' : undefined);
  // "More" closes on a change of page and with Escape (the focus goes back to its button).
  const [open, setOpen] = useState(false);
  const moreButton = useRef<HTMLButtonElement>(null);
  const [openedAt, setOpenedAt] = useState(path);
  if (open && openedAt !== path) setOpen(false);
  const toggle = () => {
    setOpenedAt(path);
    setOpen((o) => !o);
  };
  const closeOnEscape = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return;
    setOpen(false);
    moreButton.current?.focus();
  };
  const logout = () => {
    void endSession().finally(() => navigate('/login'));
  };
  const counts: Record<string, Count> = {
    '/notifications': { count: unread.data, unread: true },
    '/messages': { count: unreadMessages.data, unread: true },
    '/cart': { count: inCart.data, unread: false },
  };
  const item = (href: string, label: string, icon: IconName) => {
    const n = counts[href];
    return (
      <li key={href}>
        <Link href={href} aria-current={current(href)} className="nav-item">
          <span className="nav-icon">
            <Icon name={icon} />
            {n?.count ? (
              <span className="badge" aria-hidden="true">
                {n.count > 99 ? '99+' : n.count}
              </span>
            ) : null}
          </span>
          <span className="nav-label">{label}</span>
          {n?.count ? (
            <span className="visually-hidden"> ({n.unread ? `${n.count} unread` : n.count})</span>
          ) : null}
        </Link>
      </li>
    );
  };
  return (
    <nav aria-label="Main" onKeyDown={closeOnEscape}>
      <ul className="nav-main">
        {session ? (
          <>
            {MAIN_LINKS.map(([href, label, icon]) => item(href, label, icon))}
            <li className="nav-more">
              <button
                type="button"
                className="nav-item"
                aria-expanded={open}
                aria-controls="nav-more-list"
                onClick={toggle}
                ref={moreButton}
              >
                <span className="nav-icon">
                  <Icon name="more" />
                </span>
                <span className="nav-label">More</span>
              </button>
            </li>
          </>
        ) : (
          <>
            {item('/', 'Books', 'books')}
            {item('/login', 'Log in', 'login')}
            {item('/signup', 'Sign up', 'signup')}
          </>
        )}
      </ul>
      {session && (
        <ul id="nav-more-list" className={open ? 'nav-rest open' : 'nav-rest'}>
          {MORE_LINKS.map(([href, label]) => (
            <li key={href}>
              <Link href={href} aria-current={current(href)}>
                {label}
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
        </ul>
      )}
    </nav>
  );
}
