/** Tells the administrators that a listing breaks the rules (once per student and book). */
import { api, call } from '#web/api.ts';
import type { BookDetail } from '#web/books.ts';
import { Field, Form, StatusLine } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';

const REPORT_REASONS = {
  spam: 'Spam or a fake listing',
  prohibited: 'Not allowed on this site',
  'wrong-info': 'Wrong title, edition or condition',
  offensive: 'Offensive',
  other: 'Something else',
} as const;

export function ReportForm({ book }: { book: BookDetail }) {
  const { form, bind } = useFields<{ reason: keyof typeof REPORT_REASONS; details: string }>({
    reason: 'spam',
    details: '',
  });
  const { error, busy, done, submit } = useSubmit(() => {
    const { reason, details } = form;
    const body = { bookId: book.id, reason, ...(details.trim() ? { details } : {}) };
    return call(api.POST('/api/books/reportBook', { body }));
  });
  if (done) return <StatusLine>Thank you: the administrators will look at this listing.</StatusLine>;
  return (
    <details className="report">
      <summary>Report this listing</summary>
      <Form onSubmit={submit} error={error} busy={busy} button={`Report ${book.name}`}>
        <Field
          {...bind('reason', error)}
          label="What is wrong?"
          options={Object.keys(REPORT_REASONS)}
          labels={REPORT_REASONS}
        />
        <Field {...bind('details', error)} label="Details (optional)" multiline />
      </Form>
    </details>
  );
}
