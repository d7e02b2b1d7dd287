/** `/messages`: the caller's conversations; `/messages/{id}`: one thread, updated every 5 s while open. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { paths } from '#web/api.gen.ts';
import { api, call } from '#web/api.ts';
import { readDraft, writeDraft } from '#web/drafts.ts';
import { threadQuery } from '#web/features/conversations/queries.ts';
import { ReportMessage } from '#web/features/conversations/report-message.tsx';
import { conversationsQuery, keys } from '#web/queries.ts';
import { Link } from '#web/router.tsx';
import { AnswerHandover } from '#web/ui/answer-handover.tsx';
import { ErrorNote, Field, Form } from '#web/ui/form.tsx';
import { slotText } from '#web/ui/handover.ts';
import { useAction, useFields, useSubmit } from '#web/ui/hooks.ts';
import { Hidden, Loading, When } from '#web/ui/layout.tsx';
import { Thumbnail } from '#web/ui/photos.tsx';

export function MessagesPage() {
  const list = useQuery(conversationsQuery);
  return (
    <section>
      <h1>Messages</h1>
      <ErrorNote error={list.error} />
      {list.isPending && <Loading what="your conversations" />}
      {list.data?.length === 0 && (
        <p>
          No conversations yet. Ask a seller from a book’s page: <Link href="/">find a book</Link>.
        </p>
      )}
      <ul className="conversations">
        {list.data?.map((c) => (
          <li key={c.id} className={c.unread > 0 ? 'unread' : undefined}>
            {c.book?.photo && <Thumbnail name={c.book.name} photos={[c.book.photo]} />}
            <Link href={`/messages/${encodeURIComponent(c.id)}`}>
              {c.other.firstName}
              {c.book ? ` about ${c.book.name}` : ''}
              {c.unread > 0 ? ` (${c.unread} unread)` : ''}
            </Link>{' '}
            <When at={c.lastMessage.at} />
            <p className="last-message">
              {c.lastMessage.mine ? 'You: ' : ''}
              {c.lastMessage.text}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

type Step = NonNullable<
  paths['/api/user/getConversation/{conversationId}']['get']['responses'][200]['content']['application/json']['data']['messages'][number]['handover']
>;

/** One hand-over (one seller's books in one order): each new proposal of it replaces the last. */
const handoverOf = (h: Step) => `${h.orderId}_${h.sellerId}`;

const STEP_WORDS: Record<Step['state'], string> = {
  pending: 'Proposed a hand-over',
  agreed: 'Agreed to the hand-over',
  declined: 'Declined the hand-over proposed for',
};

/**
 * A hand-over step in the thread: what was done, the point and slot, a link to the order for the
 * buyer (the order page is theirs), and Accept / Decline for the side that did not propose it while
 * it is the hand-over's latest step (the messages after it are on the same page, newest last).
 */
function HandoverStep({
  id,
  step,
  other,
  latest,
}: {
  id: string;
  step: Step;
  other: { id: string; firstName: string };
  /** the hand-over's latest step in the thread */
  latest: { id: string; proposalId: string } | undefined;
}) {
  const current = latest?.id === id;
  const theyProposed = step.proposedBy === other.id;
  const buyer = step.sellerId === other.id;
  const waiting = step.state === 'pending' && current;
  return (
    <div className="handover-step">
      <p>
        <span className="tag">
          {STEP_WORDS[step.state]}: {slotText(step)}
        </span>
        {waiting && !theyProposed && <> · waiting for {other.firstName} to answer</>}
        {step.state === 'pending' && !current && (
          <> · {latest?.proposalId === step.proposalId ? 'answered' : 'replaced by a newer proposal'}</>
        )}
        {buyer && (
          <>
            {' '}
            · <Link href={`/orders/${encodeURIComponent(step.orderId)}`}>Open the order</Link>
          </>
        )}
      </p>
      {step.state === 'pending' && theyProposed && (
        <AnswerHandover proposalId={step.proposalId} current={current} />
      )}
    </div>
  );
}

/**
 * Block (or unblock) the other side, after a second tap: no messages either way, and their books
 * leave the caller's browsing and search (docs/conversations.md). The answer is kept on the page;
 * a message sent to a blocked person says so (403 BLOCKED).
 */
function BlockControl({ other }: { other: { id: string; firstName: string } }) {
  const [asking, setAsking] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const act = useAction(keys.books, keys.conversations);
  const set = async (block: boolean) => {
    const path = block ? '/api/user/blockUser' : '/api/user/unblockUser';
    if (await act.run(() => call(api.POST(path, { body: { userId: other.id } })))) {
      setBlocked(block);
      setAsking(false);
    }
  };
  if (blocked)
    return (
      <div role="status">
        <p>
          You blocked {other.firstName}: neither of you can message the other, and their books no longer show
          for you.
        </p>
        <button type="button" className="secondary small" disabled={act.busy} onClick={() => set(false)}>
          Unblock {other.firstName}
        </button>
        <ErrorNote error={act.error} />
      </div>
    );
  if (!asking)
    return (
      <button type="button" className="secondary small" onClick={() => setAsking(true)}>
        Block {other.firstName}
      </button>
    );
  return (
    <fieldset className="confirm">
      <legend>Block {other.firstName}?</legend>
      <p>
        Neither of you will be able to message the other, and their books will no longer show for you. An
        order already placed between you still completes.
      </p>
      <button type="button" className="danger small" disabled={act.busy} onClick={() => set(true)}>
        Yes, block {other.firstName}
      </button>{' '}
      <button type="button" className="secondary small" onClick={() => setAsking(false)}>
        Cancel
      </button>
      <ErrorNote error={act.error} />
    </fieldset>
  );
}

export function ThreadPage({ id }: { id: string }) {
  const client = useQueryClient();
  const thread = useQuery(threadQuery(id));
  const count = thread.data?.messages.length ?? 0;
  // What is on the screen is read: the unread count (and the badge) go back to 0.
  useEffect(() => {
    if (count === 0) return;
    call(api.POST('/api/user/markConversationRead', { body: { conversationId: id } }))
      .then(() => client.invalidateQueries({ queryKey: conversationsQuery.queryKey }))
      .catch(() => undefined);
  }, [client, id, count]);
  // a message typed and not sent stays with its conversation until it is sent (drafts.ts)
  // read once: the page re-renders on every key and every poll (it is keyed by conversation)
  const [draft] = useState(() => readDraft(`message:${id}`, (raw) => (typeof raw === 'string' ? raw : null)));
  const { form, bind, update } = useFields({ text: draft ?? '' });
  useEffect(() => writeDraft(`message:${id}`, form.text.trim() ? form.text : null), [id, form.text]);
  const { error, busy, submit } = useSubmit(async () => {
    await call(api.POST('/api/user/sendMessage', { body: { conversationId: id, text: form.text } }));
    // empty, not back to where it started (a restored draft): its draft goes with it
    update({ text: '' });
  }, keys.conversations);
  // The latest step of each hand-over in the thread: only it can still be answered.
  const latest = new Map<string, { id: string; proposalId: string }>();
  for (const m of thread.data?.messages ?? [])
    if (m.handover) latest.set(handoverOf(m.handover), { id: m.id, proposalId: m.handover.proposalId });
  if (!thread.data)
    return (
      <section>
        <h1>Conversation</h1>
        {thread.isPending ? <Loading what="the conversation" /> : <ErrorNote error={thread.error} />}
        <Link href="/messages">All messages</Link>
      </section>
    );
  return (
    <section>
      <h1>Conversation with {thread.data.other.firstName}</h1>
      <p>
        <Link href="/messages">All messages</Link>
      </p>
      {/* a chat: theirs on the left, mine on the right, who wrote each said to screen readers */}
      <ol className="messages chat" aria-label="Messages" aria-live="polite">
        {thread.data.messages.map((m) => (
          <li key={m.id} className={m.mine ? 'mine' : 'theirs'}>
            <Hidden>{m.mine ? 'You' : thread.data.other.firstName}: </Hidden>
            {m.handover ? (
              <HandoverStep
                step={m.handover}
                other={thread.data.other}
                latest={latest.get(handoverOf(m.handover))}
                id={m.id}
              />
            ) : (
              <>
                {/* one thread per pair of students: each question names the book it asks about */}
                {m.bookId && (
                  <span>
                    About{' '}
                    <Link href={`/books/${encodeURIComponent(m.bookId)}`}>
                      {m.bookName ? `“${m.bookName}”` : 'this book'}
                    </Link>
                    :{' '}
                  </span>
                )}
                <span className="pre">{m.text}</span>
              </>
            )}{' '}
            <small>
              <When at={m.at} />
            </small>
            {!m.mine && !m.handover && <ReportMessage conversationId={id} messageId={m.id} />}
          </li>
        ))}
      </ol>
      <Form onSubmit={submit} error={error} busy={busy} button="Send">
        <Field {...bind('text', error)} label="Your message" multiline required />
      </Form>
      <div className="thread-safety">
        <BlockControl other={thread.data.other} />
      </div>
    </section>
  );
}
