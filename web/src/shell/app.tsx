/** The shell: header navigation, the page for the current path, footer. */
import { Suspense, useEffect, useRef } from 'react';
import { Link, useLocation } from '#web/router.tsx';
import { Nav } from '#web/shell/nav.tsx';
import { route, titleOf } from '#web/shell/routes.tsx';
import { Loading } from '#web/ui/layout.tsx';

export function App() {
  const { path } = useLocation();
  const main = useRef<HTMLElement>(null);
  const title = titleOf(path);
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
