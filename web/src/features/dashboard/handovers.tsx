/** "Today's hand-overs": the agreed slots of a day at every point, earliest first, so each point is staffed. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { conversationHref } from '#web/features/dashboard/conversation.tsx';
import { handoversQuery } from '#web/features/dashboard/queries.ts';
import { Link } from '#web/router.tsx';
import { ErrorNote, Field } from '#web/ui/form.tsx';
import { slotText } from '#web/ui/handover.ts';
import { MoreButton } from '#web/ui/layout.tsx';

/** Today's date in the browser's zone, `YYYY-MM-DD`. */
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

export function TodaysHandovers() {
  const [day, setDay] = useState(today);
  const list = useInfiniteQuery(handoversQuery(day));
  return (
    <section aria-labelledby="today-h">
      <h2 id="today-h">Today's hand-overs</h2>
      <Field
        name="day"
        type="date"
        label="Day"
        value={day}
        onChange={(v) => v && setDay(v)}
        error={list.error?.field('day')}
      />
      <ErrorNote error={list.error} />
      {list.data?.length === 0 && <p>No hand-over agreed for this day.</p>}
      <ul className="books">
        {list.data?.map(({ handover, buyer, seller, books, conversationId }) => (
          <li key={handover.proposalId}>
            <article aria-label={`Hand-over ${slotText(handover)}`}>
              <h3>{slotText(handover)}</h3>
              <p>Books: {books.map((b) => b.name).join(', ')}</p>
              <p>
                Seller: {seller ? `${seller.firstName} ${seller.lastName}` : 'deleted user'} · Buyer:{' '}
                {buyer ? `${buyer.firstName} ${buyer.lastName}` : 'deleted user'}
              </p>
              <p>
                <Link href={conversationHref(conversationId)}>Read their conversation</Link>
              </p>
            </article>
          </li>
        ))}
      </ul>
      <MoreButton list={list}>More hand-overs of this day</MoreButton>
    </section>
  );
}
