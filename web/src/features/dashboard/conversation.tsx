/**
 * An administrator reads a conversation (issue 34, items 6 and 8): the participants and the
 * messages, newest page first, "Older messages" for the ones before. The service writes every read
 * to the audit log before answering (GET /api/dashboard/getConversation), so the page says so; the
 * thread is read when the page opens, never polled.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { adminConversationQuery } from '#web/features/dashboard/queries.ts';
import { Link } from '#web/router.tsx';
import { ErrorNote } from '#web/ui/form.tsx';
import { Loading } from '#web/ui/layout.tsx';
import { exactText } from '#web/ui/when.ts';

/** Where the dashboard shows one conversation (the queue, today's hand-overs and reports link here). */
export const conversationHref = (id: string) => `/dashboard?conversation=${encodeURIComponent(id)}`;

export function AdminConversation({ id }: { id: string }) {
  const pages = useInfiniteQuery(adminConversationQuery(id));
  const first = pages.data?.pages[0]?.data;
  const names = new Map(first?.participants.map((p) => [p.id, p.firstName || 'deleted user']));
  // Each page is oldest to newest; the pages are newest first: the oldest page leads.
  const messages = [...(pages.data?.pages ?? [])].reverse().flatMap((p) => p.data.messages);
  const notYet = pages.error?.status === 404;
  return (
    <section aria-labelledby="conversation-h">
      <h2 id="conversation-h">
        Conversation{first ? ` between ${first.participants.map((p) => names.get(p.id)).join(' and ')}` : ''}
      </h2>
      <p>
        <Link href="/dashboard">Back to the dashboard</Link>
      </p>
      <p role="note">Your reading is recorded in the audit log.</p>
      {notYet ? <p>These two have not written to each other yet.</p> : <ErrorNote error={pages.error} />}
      {pages.isPending && <Loading what="the conversation" />}
      {first && (
        <p>
          Participants: {first.participants.map((p) => `${names.get(p.id)} (user ${p.id})`).join(' and ')}
        </p>
      )}
      {pages.hasNextPage && (
        <button type="button" onClick={() => pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          Older messages
        </button>
      )}
      {first && messages.length === 0 && <p>No messages.</p>}
      <ol className="messages" aria-label="Messages">
        {messages.map((m) => (
          <li key={m.id}>
            <strong>{names.get(m.senderId) ?? `user ${m.senderId}`}:</strong>{' '}
            <span className="pre">{m.text}</span>{' '}
            <small className="when">
              <time dateTime={m.at}>{exactText(m.at)}</time>
            </small>
          </li>
        ))}
      </ol>
    </section>
  );
}
