/**
 * Writing to a book's seller (askSeller), then going on in the Messages thread: on a book's page,
 * and on an order's page for a seller the buyer has not written to yet (the buyer of a book may
 * still ask its seller). With `toBuyer`, the seller of a bought book writes to its buyer
 * (messageBuyer), on the order page before either has written.
 */
import { api, call } from '#web/api.ts';
import { keys } from '#web/queries.ts';
import { navigate } from '#web/router.tsx';
import { Field, Form } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';

/** The first message offered about a bought book: the hand-over is what is left to agree on. */
export const HANDOVER_QUESTION = 'Hello, when and where would suit you for the hand-over?';

export function AskSeller({
  bookId,
  seller,
  summary = 'Ask the seller',
  text = 'Hello, is this book still available?',
  toBuyer = false,
}: {
  bookId: string;
  /** the first name of the one written to (the buyer's, with `toBuyer`) */
  seller: string;
  summary?: string;
  text?: string;
  toBuyer?: boolean;
}) {
  const { form, bind } = useFields({ text });
  const { error, busy, submit } = useSubmit(async () => {
    const route = toBuyer ? '/api/user/messageBuyer' : '/api/user/askSeller';
    const sent = await call(api.POST(route, { body: { bookId, text: form.text } }));
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
