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

/** Who comes, and how to reach them: name, e-mail and campus mailbox. */
const person = (
  p: {
    firstName: string;
    lastName: string;
    emailAddress: string;
    campusMailbox: string;
    suspended: boolean;
  } | null,
) =>
  p
    ? `${p.firstName} ${p.lastName} (${p.emailAddress}, ${p.campusMailbox})${p.suspended ? ', suspended: cannot sign in' : ''}`
    : 'deleted user';

/** What is left to do for one book of a hand-over. */
const bookState = (b: { status: number | null; cancelled: boolean }) =>
  b.cancelled ? 'cancelled' : b.status === 2 ? 'checked' : b.status === 3 ? 'handed over' : null;

export function TodaysHandovers() {
  const [day, setDay] = useState(today);
  const list = useInfiniteQuery(handoversQuery(day));
  return (
    <section aria-labelledby="today-h">
      <h2 id="today-h">{day === today() ? "Today's hand-overs" : `Hand-overs of ${day}`}</h2>
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
        {list.data?.map(({ handover, buyer, seller, books, conversationId }) => {
          // every book's purchase was cancelled after the slot was agreed: nobody comes
          const cancelled = books.every((b) => b.cancelled);
          return (
            <li key={handover.proposalId}>
              <article
                aria-label={`Hand-over ${slotText(handover)}`}
                className={cancelled ? 'cancelled' : undefined}
              >
                <h3>
                  {cancelled && 'Cancelled: '}
                  {slotText(handover)}
                </h3>
                {cancelled && <p>Every book of this hand-over was cancelled: nobody needs to come.</p>}
                <p>
                  Books:{' '}
                  {books
                    .map((b) => {
                      const state = bookState(b);
                      return state && !cancelled ? `${b.name} (${state})` : b.name;
                    })
                    .join(', ')}
                </p>
                <p>
                  Seller: {person(seller)} · Buyer: {person(buyer)}
                </p>
                <p>
                  <Link href={conversationHref(conversationId)}>Read their conversation</Link>
                </p>
              </article>
            </li>
          );
        })}
      </ul>
      <MoreButton list={list}>More hand-overs of this day</MoreButton>
    </section>
  );
}
