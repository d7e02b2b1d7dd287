/**
 * Reporting a message of the other side to the administrators (reportMessage): the message goes
 * to their queue of reported messages as it was, and they may read the conversation
 * (docs/conversations.md). A second report of the same message changes nothing.
 */
import { api, call } from '#web/api.ts';
import { Field, Form, StatusLine } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';

const REASONS = {
  spam: 'Spam',
  scam: 'A scam (asks for money or details outside Campus Books)',
  harassment: 'Harassment',
  offensive: 'Offensive',
  other: 'Something else',
} as const;

export function ReportMessage({ conversationId, messageId }: { conversationId: string; messageId: string }) {
  const { form, bind } = useFields<{ reason: keyof typeof REASONS; details: string }>({
    reason: 'spam',
    details: '',
  });
  const { error, busy, done, submit } = useSubmit(() => {
    const { reason, details } = form;
    const body = { conversationId, messageId, reason, ...(details.trim() ? { details } : {}) };
    return call(api.POST('/api/user/reportMessage', { body }));
  });
  if (done) return <StatusLine>Reported: the administrators will read this conversation.</StatusLine>;
  return (
    <details className="report-message">
      <summary>Report</summary>
      <Form onSubmit={submit} error={error} busy={busy} button="Report this message">
        <Field
          {...bind('reason', error)}
          label="What is wrong with it?"
          options={Object.keys(REASONS)}
          labels={REASONS}
        />
        <Field {...bind('details', error)} label="Details (optional)" multiline />
      </Form>
    </details>
  );
}
