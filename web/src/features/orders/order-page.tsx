/** `/orders/{id}`: one order, its books with their dated steps or "cancelled" (loaded on demand). */
import { useQuery } from '@tanstack/react-query';
import { money } from '#web/api.ts';
import { conditionName, courseText } from '#web/books.ts';
import { Handovers } from '#web/features/orders/handover.tsx';
import { Timeline } from '#web/features/orders/timeline.tsx';
import { orderQuery } from '#web/queries.ts';
import { Link } from '#web/router.tsx';
import { Amounts } from '#web/ui/books.tsx';
import { ErrorNote } from '#web/ui/form.tsx';
import { Loading } from '#web/ui/layout.tsx';
import { Thumbnail } from '#web/ui/photos.tsx';
import { exactText } from '#web/ui/when.ts';

export default function OrderPage({ id }: { id: string }) {
  const order = useQuery(orderQuery(id));
  const o = order.data;
  // a seller opens their part of the order: their books, what they are paid, the buyer's name
  const selling = o?.viewer === 'seller';
  return (
    <section>
      <h1>{selling ? `Your sale to ${o?.buyer.firstName ?? 'the buyer'}` : 'Order'}</h1>
      {order.isPending && <Loading what="the order" />}
      <ErrorNote error={order.error} />
      {o && (
        <>
          {o.createdAt && <p>Placed {exactText(o.createdAt)}</p>}
          <ul className="books">
            {o.books.map((b) => (
              <li key={b.id} className={b.cancelled ? 'inactive' : undefined}>
                <article className="book" aria-labelledby={`ob-${b.id}`}>
                  <Thumbnail name={b.name} photos={b.photos} coverUrl={b.coverUrl} course={b.course} />
                  <h2 id={`ob-${b.id}`}>
                    {/* the book's page: its photos and details, and a way to write to the other side */}
                    <Link href={`/books/${encodeURIComponent(b.id)}`}>{b.name}</Link>{' '}
                    <span className="muted">(edition {b.edition})</span>
                  </h2>
                  <p>
                    <strong>{money(b.price)}</strong> · {courseText(b.course)} · {conditionName(b.condition)}
                    {selling ? '' : ` · sold by ${b.owner.firstName}`}
                  </p>
                  {b.cancelled && <p className="tag">Cancelled</p>}
                  <Timeline steps={b.timeline} />
                </article>
              </li>
            ))}
          </ul>
          {selling ? <SellerPay books={o.books} total={o.total} /> : <Amounts amounts={o} />}
          <Handovers order={o} />
        </>
      )}
      <p>
        <Link href="/orders">All purchases and sales</Link>
      </p>
    </section>
  );
}

/** What the seller is paid: nothing once every purchase was cancelled, paid once all were handed over. */
function SellerPay({
  books,
  total,
}: {
  books: Array<{ status: number | null; cancelled: boolean }>;
  total: number;
}) {
  const live = books.filter((b) => !b.cancelled);
  if (live.length === 0)
    return <p>This sale was cancelled: there is nothing to hand over, and nothing is paid.</p>;
  if (live.every((b) => b.status === 3))
    return (
      <p>
        You were paid <strong>{money(total)}</strong>.
      </p>
    );
  return (
    <p>
      You are paid <strong>{money(total)}</strong> once {live.length === 1 ? 'the book is' : 'the books are'}{' '}
      handed over.
    </p>
  );
}
