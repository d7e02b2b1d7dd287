/** The hand-over queues (status 1, 2, 3): confirm, set paid, cancel with a reason. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { paths } from '#web/api.gen.ts';
import { api, call, money } from '#web/api.ts';
import { conversationHref } from '#web/features/dashboard/conversation.tsx';
import { DASHBOARD_CHANGES, queueQuery } from '#web/features/dashboard/queries.ts';
import { Link } from '#web/router.tsx';
import { STATUS_LABELS } from '#web/ui/books.tsx';
import { ActionButton, ErrorNote, Field } from '#web/ui/form.tsx';
import { slotText } from '#web/ui/handover.ts';
import { useAction } from '#web/ui/hooks.ts';
import { Hidden, MoreButton, Skeletons } from '#web/ui/layout.tsx';
import { Thumbnail } from '#web/ui/photos.tsx';
import { ageOf, dayText } from '#web/ui/when.ts';

/** A hand-over waiting longer than this is shown in red. */
const OLD_MS = 3 * 24 * 60 * 60 * 1000;

type Contact =
  paths['/api/dashboard/getBooksWithStatus/{status}']['get']['responses'][200]['content']['application/json']['data'][number]['owner'];

/** What a suspended side means for the purchase (cancelPurchase: docs/trust.md). */
const SUSPENDED = {
  Seller: 'Suspended: cannot sign in or bring the book. Cancelling unlists the book instead of relisting it.',
  Buyer: 'Suspended: cannot sign in or come for the book. Cancelling relists it for others.',
} as const;

function ContactOf({ who, contact }: { who: keyof typeof SUSPENDED; contact: Contact }) {
  if (!contact) return <p>{who}: deleted user</p>;
  return (
    <>
      <p>
        {who}: {contact.firstName} {contact.lastName} ·{' '}
        <a href={`mailto:${contact.emailAddress}`}>{contact.emailAddress}</a> · mailbox{' '}
        {contact.campusMailbox} · pays with {contact.paymentUsername}
      </p>
      {contact.suspended && <p className="warning">{SUSPENDED[who]}</p>}
    </>
  );
}

/** Asked before a purchase is cancelled: who is told, and where the book goes. */
const cancelQuestion = (name: string, owner: Contact) =>
  `Cancel the purchase of ${name}? Buyer and seller are told your reason; the book is ${
    owner?.suspended ? 'unlisted (its seller is suspended)' : 'listed again'
  }.`;

/** One queue; a book moved out of it (confirmed, paid, cancelled) refreshes every queue shown. */
export function Queue({ status }: { status: 1 | 2 | 3 }) {
  const list = useInfiniteQuery(queueQuery(status));
  const act = useAction(...DASHBOARD_CHANGES);
  const [reasons, setReasons] = useState<Record<string, string>>({});
  // the book whose cancellation was tried last: a 400's message shows under its reason only
  const [last, setLast] = useState('');
  return (
    <section aria-labelledby={`q${status}-h`}>
      <h3 id={`q${status}-h`}>
        Status {status}: {STATUS_LABELS[status]}
      </h3>
      <ErrorNote error={list.error ?? act.error} />
      {list.isPending && <Skeletons what={`the ${(STATUS_LABELS[status] ?? '').toLowerCase()} queue`} />}
      {list.data?.length === 0 && <p>Empty.</p>}
      <ul className="books">
        {list.data?.map(({ book, owner, buyer, boughtAt, handover, remindedAt, conversationId }) => (
          <li key={book.id}>
            <article aria-label={book.name}>
              <Thumbnail name={book.name} photos={book.photos} coverUrl={book.coverUrl} />
              <h4>
                <Link href={`/books/${encodeURIComponent(book.id)}`}>{book.name}</Link> · {money(book.price)}
              </h4>
              {boughtAt && status === 3 && (
                // delivered and paid: nothing waits any more
                <p>
                  Bought <time dateTime={boughtAt}>{dayText(boughtAt)}</time>, handed over and paid
                </p>
              )}
              {boughtAt && status !== 3 && (
                <p className={Date.now() - Date.parse(boughtAt) > OLD_MS ? 'age old' : 'age'}>
                  Waiting {ageOf(boughtAt)} (bought <time dateTime={boughtAt}>{dayText(boughtAt)}</time>)
                </p>
              )}
              <ContactOf who="Seller" contact={owner} />
              <ContactOf who="Buyer" contact={buyer} />
              {remindedAt && (
                <p>
                  Reminded by the daily job on <time dateTime={remindedAt}>{dayText(remindedAt)}</time>
                </p>
              )}
              {handover && (
                <p>
                  Hand-over {handover.state === 'agreed' ? 'agreed' : 'proposed'}: {slotText(handover)}
                </p>
              )}
              {conversationId && (
                <p>
                  <Link href={conversationHref(conversationId)}>Read their conversation</Link>
                </p>
              )}
              <p className="actions">
                {status === 1 && (
                  <ActionButton
                    act={act}
                    action={() => call(api.POST('/api/dashboard/confirmBook', { body: { bookId: book.id } }))}
                  >
                    Confirm {book.name}
                  </ActionButton>
                )}
                {status === 2 && (
                  <ActionButton
                    act={act}
                    action={() => call(api.POST('/api/dashboard/setBookPaid', { body: { bookId: book.id } }))}
                  >
                    Set {book.name} paid
                  </ActionButton>
                )}
              </p>
              {status !== 3 && (
                // the exception, folded: Confirm is what an admin does with most purchases
                <details className="cancel-purchase">
                  <summary>
                    Cancel this purchase<Hidden> of {book.name}</Hidden>…
                  </summary>
                  <form
                    onSubmit={(e) => {
                      e.preventDefault();
                      // it tells both sides and moves the book: asked first, like every other undoing step
                      if (!window.confirm(cancelQuestion(book.name, owner))) return;
                      setLast(book.id);
                      act.run(() =>
                        call(
                          api.POST('/api/dashboard/cancelPurchase', {
                            body: { bookId: book.id, reason: reasons[book.id] ?? '' },
                          }),
                        ),
                      );
                    }}
                  >
                    <Field
                      name="reason"
                      label={`Reason to cancel the purchase of ${book.name}`}
                      value={reasons[book.id] ?? ''}
                      onChange={(v) => setReasons((r) => ({ ...r, [book.id]: v }))}
                      error={last === book.id ? act.error?.field('reason') : undefined}
                    />
                    <button type="submit" className="danger">
                      Cancel the purchase of {book.name}
                    </button>
                  </form>
                </details>
              )}
            </article>
          </li>
        ))}
      </ul>
      <MoreButton list={list}>More books in this queue</MoreButton>
    </section>
  );
}
