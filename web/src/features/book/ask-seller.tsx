/** On a book's page: the caller writes to its seller, then goes on in the Messages page. */
import { api, call } from '#web/api.ts';
import { keys } from '#web/queries.ts';
import { navigate } from '#web/router.tsx';
import { Field, Form } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';

export function AskSeller({ bookId, seller }: { bookId: string; seller: string }) {
  const { form, bind } = useFields({ text: 'Hello, is this book still available?' });
  const { error, busy, submit } = useSubmit(async () => {
    const sent = await call(api.POST('/api/user/askSeller', { body: { bookId, text: form.text } }));
    navigate(`/messages/${encodeURIComponent(sent.conversationId)}`);
  }, keys.conversations);
  return (
    <details className="ask">
      <summary>Ask the seller</summary>
      <Form onSubmit={submit} error={error} busy={busy} button={`Send to ${seller}`}>
        <Field {...bind('text', error)} label="Your message" multiline required />
      </Form>
    </details>
  );
}
