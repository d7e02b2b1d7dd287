/** `/messages`: the caller's conversations; `/messages/{id}`: one thread, updated every 5 s while open. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, call } from '#web/api.ts';
import { threadQuery } from '#web/features/conversations/queries.ts';
import { conversationsQuery, keys } from '#web/queries.ts';
import { Link } from '#web/router.tsx';
import { ErrorNote, Field, Form } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';
import { Loading } from '#web/ui/layout.tsx';

export function MessagesPage() {
  const list = useQuery(conversationsQuery);
  return (
    <section>
      <h1>Messages</h1>
      <ErrorNote error={list.error} />
      {list.isPending && <Loading what="your conversations" />}
      {list.data?.length === 0 && <p>No conversations yet. Ask a seller from a book’s page.</p>}
      <ul className="conversations">
        {list.data?.map((c) => (
          <li key={c.id}>
            <Link href={`/messages/${encodeURIComponent(c.id)}`}>
              {c.other.firstName}
              {c.book ? ` about ${c.book.name}` : ''}
              {c.unread > 0 ? ` (${c.unread} unread)` : ''}
            </Link>
            <p className="pre">
              {c.lastMessage.mine ? 'You: ' : ''}
              {c.lastMessage.text}
            </p>
          </li>
        ))}
      </ul>
    </section>
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
  const { form, bind, reset } = useFields({ text: '' });
  const { error, busy, submit } = useSubmit(async () => {
    await call(api.POST('/api/user/sendMessage', { body: { conversationId: id, text: form.text } }));
    reset();
  }, keys.conversations);
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
      <ol className="messages" aria-label="Messages" aria-live="polite">
        {thread.data.messages.map((m) => (
          <li key={m.id} className={m.mine ? 'mine' : 'theirs'}>
            <strong>{m.mine ? 'You' : thread.data.other.firstName}:</strong>{' '}
            <span className="pre">{m.text}</span> <small>{new Date(m.at).toLocaleString()}</small>
          </li>
        ))}
      </ol>
      <Form onSubmit={submit} error={error} busy={busy} button="Send">
        <Field {...bind('text', error)} label="Your message" multiline required />
      </Form>
    </section>
  );
}
