/**
 * A book's way into the cart outside its own page: the "In your cart" mark, and the button that
 * puts it there. It lives in ui/ because the browse, requests and saved features show it.
 */
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '#web/api.ts';
import { keys } from '#web/queries.ts';
import { ErrorNote, useFocusWhen } from '#web/ui/form.tsx';
import { useAction } from '#web/ui/hooks.ts';

/** A book's "In your cart" mark; focused when `focus` (the book was just added). */
function InCart({ name, focus }: { name: string; focus: boolean }) {
  const ref = useFocusWhen<HTMLSpanElement>(focus);
  return (
    <span className="tag" tabIndex={-1} ref={ref}>
      In your cart<span className="visually-hidden">: {name}</span>
    </span>
  );
}

/**
 * "Add to cart" for one book, or its "In your cart" mark once it is there (focused after the
 * add: the button is gone). `changes` are the queries that say whether it is in the cart, read
 * again after the add; the cart and the activity counts always are, and the book lists are marked
 * stale (they say "In your cart" the next time they are shown). `small` on a card, where every
 * button is small; a list row's is the size of the heart beside it.
 */
export function AddToCart({
  bookId,
  name,
  inCart,
  changes = [],
  small = false,
}: {
  bookId: string;
  name: string;
  /** whether the list it came from said it was in the cart */
  inCart?: boolean;
  changes?: QueryKey[];
  small?: boolean;
}) {
  const client = useQueryClient();
  const cart = useAction(keys.cart, keys.statistics, ...changes);
  const [added, setAdded] = useState(false);
  const add = () =>
    cart.run(async () => {
      await call(api.POST('/api/user/addToCart', { body: { bookId } }));
      setAdded(true);
      await client.invalidateQueries({ queryKey: keys.books, refetchType: 'none' });
    });
  if (inCart || added) return <InCart name={name} focus={added} />;
  return (
    <>
      <button type="button" className={small ? 'small' : undefined} onClick={add} disabled={cart.busy}>
        Add<span className="visually-hidden"> {name}</span> to cart
      </button>
      <ErrorNote error={cart.error} />
    </>
  );
}
