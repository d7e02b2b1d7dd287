/**
 * The home page's "Your listings" row: a signed-in seller's own listed books, which getAllBooks and
 * the searches leave out of the caller's view, shown apart so they do not seem to vanish. It reads
 * My listings' query (getUsersPosts: no extra route) and is hidden when there is none.
 */
import { useQuery } from '@tanstack/react-query';
import { BookGrid } from '#web/features/browse/book-card.tsx';
import { listingsQuery } from '#web/queries.ts';
import { Link } from '#web/router.tsx';

/** How many of the seller's books the row shows; the rest are a link away. */
const SHOWN = 4;

export function YourListings() {
  const listings = useQuery({ ...listingsQuery, select: (all) => all.filter((b) => b.status === 0) });
  const listed = listings.data ?? [];
  if (listed.length === 0) return null;
  return (
    <section aria-labelledby="yours-h" className="your-listings">
      <h2 id="yours-h">Your listings</h2>
      <BookGrid books={listed.slice(0, SHOWN)} />
      <p>
        <Link href="/listings">
          {listed.length > SHOWN ? `All ${listed.length} of your listings` : 'Edit them in my listings'}
        </Link>
      </p>
    </section>
  );
}
