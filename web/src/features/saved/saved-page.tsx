/** `/saved`: the books the caller saved, as they are now: price (and the price when saved) and availability. */
import { useQuery } from '@tanstack/react-query';
import { money } from '#web/api.ts';
import { cartQuery, savedQuery } from '#web/queries.ts';
import { Link } from '#web/router.tsx';
import { BookList } from '#web/ui/books.tsx';
import { AddToCart } from '#web/ui/cart-button.tsx';
import { ErrorNote } from '#web/ui/form.tsx';
import { Loading } from '#web/ui/layout.tsx';
import { SaveButton } from '#web/ui/save-button.tsx';

const GONE: Record<number, string> = { 1: 'Sold', 2: 'Sold', 3: 'Sold', 5: 'No longer listed' };

export function SavedPage() {
  // The hearts read the saved set once (staleTime: Infinity); this page shows prices and
  // availability, which change under it, so it reads them again each time it opens.
  const saved = useQuery({ ...savedQuery, refetchOnMount: 'always' });
  // the nav's cart count reads the same query, so this costs no request of its own
  const cart = useQuery(cartQuery);
  const carted = new Set(cart.data?.items.map((b) => b.id));
  return (
    <section>
      <h1>Saved books</h1>
      <p className="muted">
        You hear (in Notifications, and by e-mail if you like) when a saved book gets cheaper, is sold or is
        unlisted.
      </p>
      {saved.isPending && <Loading what="your saved books" />}
      <ErrorNote error={saved.error} />
      {saved.data?.length === 0 && (
        <p>
          No saved books yet. Press “Save” on a book in <Link href="/">the books</Link> to keep an eye on it.
        </p>
      )}
      <BookList books={saved.data} inactive={(b) => !b.available}>
        {(b) => (
          <>
            <p>
              {b.available ? (
                <strong>Available</strong>
              ) : (
                <strong>{GONE[b.status] ?? 'Not available'}</strong>
              )}
              {b.price < b.priceWhenSaved &&
                ` · now ${money(b.price)}, was ${money(b.priceWhenSaved)} when you saved it`}
            </p>
            {/* a book kept an eye on is bought from here (whether it is in the cart: the cart's query) */}
            <div className="actions">
              {b.available && <AddToCart bookId={b.id} name={b.name} inCart={carted.has(b.id)} />}
              <SaveButton bookId={b.id} name={b.name} />
            </div>
            {b.available && (
              <p>
                <Link href={`/books/${encodeURIComponent(b.id)}`}>Details of {b.name}</Link>
              </p>
            )}
          </>
        )}
      </BookList>
    </section>
  );
}
