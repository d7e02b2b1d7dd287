/**
 * `/cart`: the cart and checkout, with a fresh Idempotency-Key per attempt. A checkout refused
 * because a seller changed a carted book names what changed and offers to accept it.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type ApiFailure, api, call, idempotencyKey } from '#web/api.ts';
import { cartQuery, keys } from '#web/queries.ts';
import { Link } from '#web/router.tsx';
import { Amounts, BookList } from '#web/ui/books.tsx';
import { ActionButton, ErrorNote, StatusLine, useFocusWhen } from '#web/ui/form.tsx';
import { useAction } from '#web/ui/hooks.ts';
import { Hidden, Loading } from '#web/ui/layout.tsx';
import { count } from '#web/ui/words.ts';

/** A 409 at checkout names the books that were taken. */
function takenBooks(error: ApiFailure | undefined | null, names: Map<string, string>): string[] {
  if (error?.status !== 409) return [];
  return (error.body?.details ?? []).flatMap((d) => {
    const id = typeof d.bookId === 'string' ? d.bookId : undefined;
    return id ? [`${names.get(id) ?? 'A book'}: ${d.message}`] : [];
  });
}

/**
 * A 409 because sellers changed carted books since they were added (their price, or anything else
 * the buyer saw: `PRICE_CHANGED`, `BOOK_CHANGED`): the ids of those books, which the buyer accepts
 * as they are now by adding them again.
 */
function changedBooks(error: ApiFailure | undefined | null): string[] {
  if (error?.status !== 409 || !['PRICE_CHANGED', 'BOOK_CHANGED'].includes(error.body?.code ?? '')) return [];
  return (error.body?.details ?? []).flatMap((d) => (typeof d.bookId === 'string' ? [d.bookId] : []));
}

/** Asked before the cart is emptied: what leaves it (every book in it, available or not). */
const emptyQuestion = (names: string[]) =>
  names.length === 1
    ? `Remove “${names[0]}” from your cart?`
    : `Remove all ${names.length} books from your cart?`;

/**
 * The placed order; its heading takes the focus (the result of "Check out"). What comes next is
 * the hand-over, agreed on the order's page: the link goes there, not to the list of purchases.
 */
function OrderPlaced({ order }: { order: { id: string; subtotal: number; fee: number; total: number } }) {
  const heading = useFocusWhen<HTMLHeadingElement>(true);
  return (
    <section>
      <h1 tabIndex={-1} ref={heading}>
        Thank you for your order
      </h1>
      <Amounts amounts={order} />
      <p>
        Next, agree with each seller when and where you meet to hand over the books. An administrator checks
        each book there.
      </p>
      <p>
        <Link href={`/orders/${encodeURIComponent(order.id)}`}>Agree on the hand-over</Link>
      </p>
    </section>
  );
}

export function CartPage() {
  const client = useQueryClient();
  const cart = useQuery(cartQuery);
  // Removing a book changes the cart and whether the lists say "In your cart".
  const act = useAction(keys.cart, keys.books);
  // An order changes the cart, the orders, the books (sold) and the buyer's statistics.
  const checkout = useAction(keys.cart, keys.orders, keys.books, keys.statistics);
  // One key per checkout attempt: a retry after a lost answer returns the same order.
  const [key, setKey] = useState(idempotencyKey);
  // whether the buyer accepted the changes a refused checkout named (then its alert is done with)
  const [accepted, setAccepted] = useState(false);
  const [order, setOrder] = useState<{ id: string; subtotal: number; fee: number; total: number } | null>(
    null,
  );
  const items = cart.data?.items ?? [];
  const names = new Map(items.map((b) => [b.id, b.name]));
  const available = items.filter((b) => b.available);
  const gone = items.filter((b) => !b.available);
  const buy = async () => {
    setAccepted(false);
    const ok = await checkout.run(async () => {
      // the checkout is all or nothing: books that are no longer available leave the cart first, so
      // they never block buying the rest (QA: one sold book made checkout fail forever)
      for (const b of gone) await call(api.POST('/api/user/removeFromCart', { body: { bookId: b.id } }));
      setOrder(
        await call(api.POST('/api/books/checkoutCart', { params: { header: { 'Idempotency-Key': key } } })),
      );
    });
    setKey(idempotencyKey());
    // A refused checkout (a book was taken) means the cart shown is out of date.
    if (!ok) await client.invalidateQueries({ queryKey: keys.cart });
  };
  if (order) return <OrderPlaced order={order} />;
  const taken = takenBooks(checkout.error, names);
  const changed = changedBooks(checkout.error);
  const accept = async () => {
    const ok = await act.run(async () => {
      for (const bookId of changed) await call(api.POST('/api/user/addToCart', { body: { bookId } }));
    });
    setAccepted(ok);
  };
  return (
    <section>
      <h1>Cart</h1>
      {cart.isPending && <Loading what="your cart" />}
      <ErrorNote error={cart.error ?? act.error} />
      {/* Outside the buy block: when the only book was taken, the reloaded cart has nothing left to buy. */}
      {accepted && (
        <StatusLine>Changes accepted: check out again to buy the books as they are now.</StatusLine>
      )}
      {checkout.error && !accepted && (
        <div role="alert" className="error">
          <p>
            {checkout.error.status === 409 && changed.length === 0
              ? 'Some books were taken before you checked out:'
              : checkout.error.message}
          </p>
          {taken.length > 0 && (
            <ul>
              {taken.map((t) => (
                <li key={t}>{t}</li>
              ))}
            </ul>
          )}
          {changed.length > 0 && (
            <button type="button" onClick={accept}>
              Accept the changes
            </button>
          )}
        </div>
      )}
      {cart.data && items.length === 0 && (
        <p>
          Your cart is empty. <Link href="/">Find books</Link>.
        </p>
      )}
      <BookList books={items} inactive={(b) => !b.available} linked>
        {(b) => (
          <>
            {!b.available && <p className="tag">No longer available</p>}
            <ActionButton
              act={act}
              action={() => call(api.POST('/api/user/removeFromCart', { body: { bookId: b.id } }))}
              className="secondary small"
            >
              Remove<Hidden> {b.name}</Hidden>
            </ActionButton>
          </>
        )}
      </BookList>
      {available.length > 0 && (
        <>
          <p>
            {count(available.length, 'book')} to buy. The service adds a 5 % fee; the subtotal, fee and total
            are confirmed when you check out.
            {gone.length > 0 &&
              ` ${gone.length === 1 ? 'The book that is' : `The ${gone.length} books that are`} no longer available ${gone.length === 1 ? 'leaves' : 'leave'} your cart when you check out.`}
          </p>
          {cart.data && <Amounts amounts={cart.data} />}
        </>
      )}
      {items.length > 0 && (
        // "Empty the cart" also when nothing in it is left to buy: a cart of sold books empties at once
        <p className="actions">
          {available.length > 0 && (
            <button type="button" onClick={buy} disabled={checkout.busy}>
              Check out
            </button>
          )}
          <ActionButton
            act={act}
            action={() => call(api.POST('/api/user/clearCart'))}
            confirm={emptyQuestion(items.map((b) => b.name))}
            className="secondary"
          >
            Empty the cart
          </ActionButton>
        </p>
      )}
    </section>
  );
}
