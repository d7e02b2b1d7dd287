/**
 * A small history-API router: the app has a handful of flat routes, no nested layouts. It keeps
 * each history entry's scroll position (a key in `history.state`, the positions in memory), so
 * Back and Forward return to where the page was, once its content is tall enough again (the
 * cached pages render at once; a page still loading is waited for).
 */
import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

// A link with a trailing slash (a mail client's or a person's) names the same page: it is shown and
// routed without the slash, instead of as an unknown page or an id the API refuses.
if (location.pathname.length > 1 && location.pathname.endsWith('/'))
  history.replaceState(
    history.state,
    '',
    `${location.pathname.replace(/\/+$/, '')}${location.search}${location.hash}`,
  );

// The browser's own restoration would scroll before the page shown from the cache has rendered.
history.scrollRestoration = 'manual';
// In memory only: nothing of the session goes to storage (the security tests check it is empty),
// and after a reload the cached pages are gone anyway.
const positions = new Map<string, number>();
const newKey = () => Math.random().toString(36).slice(2, 10);
/** The key of the history entry shown: the first page load gets one in place. */
let current = (history.state as { key?: string } | null)?.key ?? newKey();
if ((history.state as { key?: string } | null)?.key !== current) history.replaceState({ key: current }, '');

function remember(): void {
  positions.set(current, window.scrollY);
}

/** Where the page should scroll to once its content is in; cleared by the next navigation. */
let restoring: { y: number; until: number } | null = null;
let frame = 0;
function restore(): void {
  cancelAnimationFrame(frame);
  if (!restoring) return;
  const { y, until } = restoring;
  window.scrollTo(0, y);
  // The content may still be loading: try again each frame for up to 3 seconds.
  if (Math.abs(window.scrollY - y) > 1 && Date.now() < until) frame = requestAnimationFrame(restore);
  else restoring = null;
}
// A scroll by the visitor while a restore waits ends it.
for (const kind of ['wheel', 'touchstart', 'keydown'] as const)
  window.addEventListener(kind, () => {
    restoring = null;
  });

/** The element that had the focus when the page last changed (the link followed, a button). */
let focused: Element | null = null;
export const focusedAtNavigation = (): Element | null => focused;

window.addEventListener('popstate', () => {
  focused = document.activeElement;
  // the position of the page being left was kept by the scroll listener
  current = (history.state as { key?: string } | null)?.key ?? newKey();
  restoring = { y: positions.get(current) ?? 0, until: Date.now() + 3000 };
  notify();
  frame = requestAnimationFrame(restore);
});
window.addEventListener(
  'scroll',
  () => {
    if (!restoring) positions.set(current, window.scrollY);
  },
  { passive: true },
);

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  focused = document.activeElement;
  remember();
  restoring = null;
  if (options.replace) history.replaceState({ key: current }, '', to);
  else {
    current = newKey();
    history.pushState({ key: current }, '', to);
  }
  window.scrollTo(0, 0);
  notify();
}

/** The current location, path plus query, re-rendering on every navigation. */
export function useLocation(): { path: string; query: URLSearchParams; href: string } {
  const href = useSyncExternalStore(subscribe, () => location.pathname + location.search);
  const url = new URL(href, location.origin);
  return { path: url.pathname, query: url.searchParams, href };
}

export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={click} {...rest} />;
}
