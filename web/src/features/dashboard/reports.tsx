import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, money } from '#web/api.ts';
import { courseText } from '#web/books.ts';
import { conversationHref } from '#web/features/dashboard/conversation.tsx';
import { DASHBOARD_CHANGES, messageReportsQuery, reportsQuery } from '#web/features/dashboard/queries.ts';
import { Link } from '#web/router.tsx';
import { STATUS_LABELS } from '#web/ui/books.tsx';
import { Field, StatusLine } from '#web/ui/form.tsx';
import { useAction } from '#web/ui/hooks.ts';
import { MoreButton, Section } from '#web/ui/layout.tsx';
import { ageOf, dayText, exactText } from '#web/ui/when.ts';
import { count } from '#web/ui/words.ts';

const REASONS: Record<string, string> = {
  spam: 'spam',
  prohibited: 'not allowed',
  'wrong-info': 'wrong information',
  offensive: 'offensive',
  other: 'other',
};

/**
 * The moderation queue: reported books, most reported first; dismiss the reports, unlist the book,
 * or restore a hidden book (those whose reports hid it lose their weight for 30 days).
 */
export function Reports() {
  const list = useInfiniteQuery(reportsQuery);
  const act = useAction(...DASHBOARD_CHANGES);
  const [reasons, setReasons] = useState<Record<string, string>>({});
  // the book acted on last: a 400's message for the reason shows under that book's field only
  const [last, setLast] = useState('');
  // what the last decision did, said once it is done (the book leaves the queue with it)
  const [said, setSaid] = useState<string | null>(null);
  const resolve = async (bookId: string, name: string, action: 'dismiss' | 'unlist' | 'restore') => {
    // unlisting takes a book off the market: asked first (QA: one tap, and no word after)
    if (action === 'unlist' && !window.confirm(`Unlist ${name}? Its seller is told, with your reason.`))
      return;
    setLast(bookId);
    setSaid(null);
    const reason = reasons[bookId]?.trim();
    const body = { bookId, action, ...(reason ? { reason } : {}) };
    const done = await act.run(() => call(api.POST('/api/dashboard/resolveReport', { body })));
    if (done)
      setSaid(
        action === 'unlist'
          ? `${name} is unlisted; its seller is told.`
          : action === 'restore'
            ? `${name} is shown to students again.`
            : `The reports on ${name} are dismissed.`,
      );
  };
  return (
    <Section id="reports-h" title="Reported books" loaded={list} error={act.error} empty="No open reports.">
      {said && <StatusLine key={said}>{said}</StatusLine>}
      <ul className="books">
        {list.data?.map((r) => {
          const name = r.book?.name ?? 'A deleted book';
          return (
            <li key={r.bookId}>
              <article aria-label={name}>
                <h3>
                  {r.book ? <Link href={`/books/${encodeURIComponent(r.bookId)}`}>{name}</Link> : name} ·{' '}
                  {count(r.count, 'report')}
                  {r.hidden ? ' · hidden from students' : ''}
                </h3>
                {r.book && (
                  <p>
                    {courseText(r.book.course)} · {money(r.book.price)} · {STATUS_LABELS[r.book.status]}
                  </p>
                )}
                <ul>
                  {r.reports.map((x) => (
                    <li key={`${x.userId}-${x.at}`}>
                      {exactText(x.at)}: {REASONS[x.reason] ?? x.reason}
                      {x.details ? `: ${x.details}` : ''}
                      {x.counted ? '' : ' (not counted: a new or penalised reporter)'}
                    </li>
                  ))}
                </ul>
                <Field
                  name="reason"
                  label={`Reason told to the seller of ${name} (optional)`}
                  value={reasons[r.bookId] ?? ''}
                  onChange={(v) => setReasons((all) => ({ ...all, [r.bookId]: v }))}
                  error={last === r.bookId ? act.error?.field('reason') : undefined}
                />
                <p className="actions">
                  <button
                    type="button"
                    onClick={() => resolve(r.bookId, name, 'dismiss')}
                    disabled={act.busy}
                  >
                    Dismiss the reports on {name}
                  </button>
                  {r.hidden && (
                    <button
                      type="button"
                      onClick={() => resolve(r.bookId, name, 'restore')}
                      disabled={act.busy}
                    >
                      Restore {name} (its reporters lose their weight for 30 days)
                    </button>
                  )}
                  <button
                    type="button"
                    className="danger"
                    onClick={() => resolve(r.bookId, name, 'unlist')}
                    disabled={act.busy}
                  >
                    Unlist {name}
                  </button>
                </p>
              </article>
            </li>
          );
        })}
      </ul>
      <MoreButton list={list}>More reported books</MoreButton>
    </Section>
  );
}

/** A report's party by name and e-mail (what the users tab finds them by), or its id once deleted. */
const who = (
  party: { firstName: string; lastName: string; emailAddress: string } | null,
  id: string,
): string =>
  party ? `${party.firstName} ${party.lastName} (${party.emailAddress})` : `a deleted account (${id})`;

/**
 * Reported messages (issue 34), newest first: each with its reason, details and the text as reported.
 * An admin closes one as dismissed (nothing wrong) or handled (acted on, e.g. the sender suspended
 * from the users tab); it leaves the queue either way.
 */
export function MessageReports() {
  const list = useInfiniteQuery(messageReportsQuery);
  const act = useAction(...DASHBOARD_CHANGES);
  // what the last decision did, said once it is done (the report leaves the queue with it)
  const [said, setSaid] = useState<string | null>(null);
  const close = async (
    r: { conversationId: string; messageId: string; reporterId: string },
    action: 'dismiss' | 'handled',
  ) => {
    setSaid(null);
    const body = {
      conversationId: r.conversationId,
      messageId: r.messageId,
      reporterId: r.reporterId,
      action,
    };
    const done = await act.run(() => call(api.POST('/api/dashboard/resolveMessageReport', { body })));
    if (done) setSaid(action === 'dismiss' ? 'The report is dismissed.' : 'The report is marked handled.');
  };
  return (
    <Section
      id="message-reports-h"
      title="Reported messages"
      loaded={list}
      error={act.error}
      empty="No reported messages."
    >
      {said && <StatusLine key={said}>{said}</StatusLine>}
      <ul className="books">
        {list.data?.map((r) => (
          <li key={`${r.messageId}-${r.reporterId}`}>
            <article aria-label={`Report of a message sent ${dayText(r.message.at)}`}>
              <h3>
                Reported as {REASONS[r.reason] ?? r.reason} · {ageOf(r.at)} ago
              </h3>
              <blockquote>{r.message.text}</blockquote>
              {r.details && <p>Details: {r.details}</p>}
              <p>
                Sent by {who(r.sender, r.message.senderId)} on{' '}
                <time dateTime={r.message.at} title={exactText(r.message.at)}>
                  {dayText(r.message.at)}
                </time>
                , reported by {who(r.reporter, r.reporterId)}.
              </p>
              <p>
                <Link href={conversationHref(r.conversationId)}>Read the conversation</Link>
              </p>
              <p className="actions">
                <button type="button" onClick={() => close(r, 'dismiss')} disabled={act.busy}>
                  Dismiss (nothing wrong)
                </button>
                <button type="button" onClick={() => close(r, 'handled')} disabled={act.busy}>
                  Mark handled
                </button>
              </p>
            </article>
          </li>
        ))}
      </ul>
      <MoreButton list={list}>More reported messages</MoreButton>
    </Section>
  );
}
