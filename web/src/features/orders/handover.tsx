/**
 * The hand-over of each seller's books on the order page: the agreed slot, a proposal waiting for
 * an answer (accept or decline), and a form to propose a slot at one of the campus's hand-over
 * points (docs/handover.md). The service checks the hours and who may do what.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { paths } from '#web/api.gen.ts';
import { api, call } from '#web/api.ts';
import { handoverPointsQuery } from '#web/features/orders/queries.ts';
import { keys } from '#web/queries.ts';
import { Link } from '#web/router.tsx';
import { getSession } from '#web/session.ts';
import { AnswerHandover } from '#web/ui/answer-handover.tsx';
import { AskSeller, HANDOVER_QUESTION } from '#web/ui/ask-seller.tsx';
import { ErrorNote, Field } from '#web/ui/form.tsx';
import { hoursText, slotText } from '#web/ui/handover.ts';
import { useAction } from '#web/ui/hooks.ts';
import { Loading } from '#web/ui/layout.tsx';

type Order =
  paths['/api/user/getOrder/{orderId}']['get']['responses'][200]['content']['application/json']['data'];
type Handover = Order['handovers'][number];

function Current({ h, me, other }: { h: Handover; me: string; other: string }) {
  if (h.state === 'agreed') return <p className="tag">Hand-over agreed: {slotText(h)}</p>;
  if (h.state === 'declined')
    return <p>The hand-over proposed for {slotText(h)} was declined. Propose another time.</p>;
  if (h.proposedBy === me)
    return (
      <p>
        You proposed {slotText(h)}. Waiting for {other} to answer.
      </p>
    );
  return (
    <>
      <p>
        {other} proposed a hand-over: {slotText(h)}.
      </p>
      <AnswerHandover proposalId={h.proposalId} current />
    </>
  );
}

/** `seller`: whose books the hand-over covers; `other`: the first name of the other side. */
function Propose({ orderId, sellerId, other }: { orderId: string; sellerId: string; other: string }) {
  const points = useQuery(handoverPointsQuery);
  const act = useAction(keys.orders, keys.notifications, keys.conversations);
  const [pointId, setPointId] = useState('');
  const [when, setWhen] = useState('');
  const list = points.data ?? [];
  const chosen = list.find((p) => p.id === pointId) ?? list[0];
  // no form until the points are known: an empty list while they load is not "no point"
  if (points.isPending) return <Loading what="the hand-over points" />;
  if (points.isError) return <ErrorNote error={points.error} />;
  if (list.length === 0)
    return (
      <p>
        Your campus has no hand-over point yet, so no time can be proposed. The administrators add them; until
        then, write to {other} here.
      </p>
    );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!chosen || !when) return;
        act.run(() =>
          call(
            api.POST('/api/user/proposeHandover', {
              body: { orderId, sellerId, pointId: chosen.id, at: new Date(when).toISOString() },
            }),
          ),
        );
      }}
    >
      <Field
        name="point"
        label={`Hand-over point with ${other}`}
        value={chosen?.id ?? ''}
        onChange={setPointId}
        options={list.map((p) => p.id)}
        labels={Object.fromEntries(list.map((p) => [p.id, p.name]))}
        error={act.error?.field('pointId')}
      />
      {chosen && <p className="muted">Hours: {hoursText(chosen)}</p>}
      <Field
        name="at"
        type="datetime-local"
        label={`Hand-over time with ${other}`}
        value={when}
        onChange={setWhen}
        required
        error={act.error?.field('at')}
      />
      <ErrorNote error={act.error} />
      <button type="submit" disabled={act.busy}>
        Propose this hand-over
      </button>
    </form>
  );
}

/**
 * The way to talk to the other side of a hand-over: their thread once either has written, or else
 * a first message about a book of this order: the buyer's to the seller (askSeller), the seller's
 * to the buyer (messageBuyer).
 */
function Talk({ order, sellerId, other }: { order: Order; sellerId: string; other: string }) {
  const otherId = order.viewer === 'seller' ? order.buyer.id : sellerId;
  const conversationId = order.conversations.find((c) => c.userId === otherId)?.conversationId;
  if (conversationId)
    return (
      <p>
        <Link href={`/messages/${encodeURIComponent(conversationId)}`}>Messages with {other}</Link>
      </p>
    );
  const book = order.books.find((b) => b.owner.id === sellerId && !b.cancelled);
  if (!book) return null;
  return (
    <AskSeller
      bookId={book.id}
      seller={other}
      summary={`Write to ${other}`}
      text={HANDOVER_QUESTION}
      toBuyer={order.viewer === 'seller'}
    />
  );
}

/** One section per seller whose books still wait for their hand-over (or have one planned). */
export function Handovers({ order }: { order: Order }) {
  const me = getSession()?.userId ?? '';
  const sellers = new Map<string, { id: string; firstName: string }>();
  for (const b of order.books) if (!b.cancelled && b.status === 1) sellers.set(b.owner.id, b.owner);
  if (sellers.size === 0) return null;
  return (
    <section aria-labelledby="handover-h">
      <h2 id="handover-h">Hand-over</h2>
      <p className="muted">
        An administrator meets you both at the point, checks the book and hands it over.
      </p>
      {[...sellers.values()].map((seller) => {
        const current = order.handovers.find((h) => h.sellerId === seller.id);
        // the seller's part of the order has their books only: the other side is the buyer
        const other = order.viewer === 'seller' ? (order.buyer.firstName ?? 'the buyer') : seller.firstName;
        return (
          <article key={seller.id} aria-label={`Hand-over with ${other}`}>
            <h3>With {other}</h3>
            {current && <Current h={current} me={me} other={other} />}
            <Talk order={order} sellerId={seller.id} other={other} />
            {/* a slot agreed or waiting for an answer comes first; moving it is the second thing */}
            {current && current.state !== 'declined' ? (
              <details className="propose-again">
                <summary>Propose another time</summary>
                <Propose orderId={order.id} sellerId={seller.id} other={other} />
              </details>
            ) : (
              <Propose orderId={order.id} sellerId={seller.id} other={other} />
            )}
          </article>
        );
      })}
    </section>
  );
}
