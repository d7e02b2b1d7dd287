/** The shell: header navigation, the page for the current path, footer. */
import { Suspense, useEffect, useRef } from 'react';
import { focusedAtNavigation, Link, useLocation } from '#web/router.tsx';
import { Nav } from '#web/shell/nav.tsx';
import { route, titleOf } from '#web/shell/routes.tsx';
import { Loading } from '#web/ui/layout.tsx';

/**
 * On a change of page (not of its query: a filter keeps the focus where it is), the focus moves to
 * the new page's main heading, as a screen reader user expects from a link that loads a page,
 * unless the page put it somewhere itself (a field of its own). A page still loading (a lazy
 * page, a session being restored, a loading heading replaced by the loaded one) is followed for 5
 * seconds, until its heading is in.
 */
function useFocusOnPageChange(path: string, main: React.RefObject<HTMLElement | null>) {
  const shown = useRef(path);
  useEffect(() => {
    // the first page of a visit keeps the browser's start (the skip link comes first)
    if (shown.current === path) return;
    shown.current = path;
    const before = focusedAtNavigation();
    const active = () => document.activeElement;
    // the heading focused here; a page that swaps its loading heading for the loaded one gets the new one focused
    let ours: HTMLElement | null = null;
    const focusHeading = () => {
      // the shown heading: while a lazy page loads, React keeps the page being left in the
      // document, hidden, until the new one is in
      const h1 = [...(main.current?.querySelectorAll('h1') ?? [])].find((h) => h.getClientRects().length > 0);
      if (!h1 || h1 === ours) return;
      const free = ours
        ? !ours.isConnected && (!active() || active() === document.body)
        : !active() || active() === document.body || active() === before;
      // the page or the visitor put the focus somewhere: leave it there
      if (!free) return watch.disconnect();
      h1.tabIndex = -1;
      h1.focus({ preventScroll: true });
      if (document.activeElement === h1) ours = h1;
    };
    const watch = new MutationObserver(focusHeading);
    if (main.current) watch.observe(main.current, { childList: true, subtree: true });
    focusHeading();
    const stop = setTimeout(() => watch.disconnect(), 5000);
    return () => {
      watch.disconnect();
      clearTimeout(stop);
    };
  }, [path, main]);
}

export function App() {
  const { path } = useLocation();
  const main = useRef<HTMLElement>(null);
  const title = titleOf(path);
  useEffect(() => {
    document.title = `${title} · Campus Books`;
  }, [title]);
  useFocusOnPageChange(path, main);
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
