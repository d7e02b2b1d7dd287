/** `/orders`: the student's orders, and the books bought and sold with their progress. */
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { type ApiFailure, money } from '#web/api.ts';
import type { Book } from '#web/books.ts';
import { boughtQuery, ordersQuery, soldQuery } from '#web/queries.ts';
import { Link } from '#web/router.tsx';
import { BookList, Progress } from '#web/ui/books.tsx';
import { Hidden, Loading, Section } from '#web/ui/layout.tsx';
import { dayText } from '#web/ui/when.ts';

function ProgressList({
  id,
  title,
  books,
  empty,
}: {
  id: string;
  title: string;
  empty: ReactNode;
  books: {
    data?: (Omit<Book, 'orderId'> & { orderId?: string | null })[] | undefined;
    error: ApiFailure | null;
  };
}) {
  return (
    <Section id={id} title={title} loaded={books} empty={empty}>
      {/* its steps say where it stands: no "Status:" line above them in other words */}
      <BookList books={books.data}>
        {(b) => (
          <>
            <Progress status={b.status} />
            {b.orderId && (
              <Link href={`/orders/${encodeURIComponent(b.orderId)}`}>
                {/* bought, not yet handed over: the order's page is where the two agree when and where */}
                See the order<Hidden> of {b.name}</Hidden>
                {b.status === 1 && ' and its hand-over'}
              </Link>
            )}
          </>
        )}
      </BookList>
    </Section>
  );
}

export function OrdersPage() {
  const orders = useQuery(ordersQuery);
  const bought = useQuery(boughtQuery);
  const sold = useQuery(soldQuery);
  // no orders means no books bought: one empty line says so, not two; a student who has only sold
  // meets their sales first
  const noOrders = orders.data?.length === 0;
  const soldFirst = noOrders && (sold.data?.length ?? 0) > 0;
  const soldList = (
    <ProgressList
      id="sold-h"
      title="Books I sold"
      books={sold}
      empty={
        <>
          Nothing yet. <Link href="/sell">Sell a book</Link>.
        </>
      }
    />
  );
  // the order of the sections depends on both lists: nothing is shown until both are read, so no
  // section moves under the student once the other arrives (from the cache, at once)
  const read = (q: { data?: unknown; error: unknown }) => q.data !== undefined || q.error !== null;
  if (!read(orders) || !read(sold))
    return (
      <>
        <h1>Purchases and sales</h1>
        <Loading what="your purchases and sales" />
      </>
    );
  return (
    <>
      <h1>Purchases and sales</h1>
      {soldFirst && soldList}
      {/* an empty list says what to do next */}
      <Section
        id="orders-h"
        title="My orders"
        loaded={orders}
        empty={
          <>
            No orders yet. <Link href="/">Find a book</Link>.
          </>
        }
      >
        <ul>
          {orders.data?.map((o) => (
            <li key={o.id}>
              <Link href={`/orders/${encodeURIComponent(o.id)}`}>
                Order of {o.createdAt ? dayText(o.createdAt) : 'an unknown day'}:{' '}
                {o.books.map((b) => b.name).join(', ')}
              </Link>{' '}
              · {money(o.total)}
            </li>
          ))}
        </ul>
      </Section>
      {!noOrders && <ProgressList id="bought-h" title="Books I bought" books={bought} empty="Nothing yet." />}
      {!soldFirst && soldList}
    </>
  );
}
