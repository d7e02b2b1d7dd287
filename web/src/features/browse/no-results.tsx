/** An empty search's next steps (issue 33, item 6): ask for the book, or sell a copy. */
import { prefillHref } from '#web/prefill.ts';
import { Link } from '#web/router.tsx';

export function NoResults({ q }: { q: string }) {
  if (!q) return <p>No books found.</p>;
  return (
    <div className="no-results" role="status">
      <p>No books found for “{q}”.</p>
      <p>
        <Link href={prefillHref('/requests', q)}>Request this book</Link>: we tell you when someone lists it.{' '}
        <Link href={prefillHref('/sell', q)}>Sell yours</Link>
      </p>
    </div>
  );
}
