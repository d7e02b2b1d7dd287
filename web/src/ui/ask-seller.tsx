/**
 * Writing to a book's seller (askSeller), then going on in the Messages thread: on a book's page,
 * and on an order's page for a seller the buyer has not written to yet (the buyer of a book may
 * still ask its seller).
 */
import { api, call } from '#web/api.ts';
import { keys } from '#web/queries.ts';
import { navigate } from '#web/router.tsx';
import { Field, Form } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';

export function AskSeller({
  bookId,
  seller,
  summary = 'Ask the seller',
  text = 'Hello, is this book still available?',
}: {
  bookId: string;
  seller: string;
  summary?: string;
  text?: string;
}) {
  const { form, bind } = useFields({ text });
  const { error, busy, submit } = useSubmit(async () => {
    const sent = await call(api.POST('/api/user/askSeller', { body: { bookId, text: form.text } }));
    navigate(`/messages/${encodeURIComponent(sent.conversationId)}`);
  }, keys.conversations);
  return (
    <details className="ask">
      <summary>{summary}</summary>
      <Form onSubmit={submit} error={error} busy={busy} button={`Send to ${seller}`}>
        <Field {...bind('text', error)} label="Your message" multiline required />
      </Form>
    </details>
  );
}
