/**
 * A report to the administrators, folded under its summary until opened: a reason from a list and
 * optional details, then a line that says what happens next. Listings and messages are reported
 * alike (docs/web.md); each caller names its reasons and sends the report to its own route.
 */
import { Field, Form, StatusLine } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';

/** What a student reports: the reason's key, and details only when they wrote some. */
export type Report<R extends string> = { reason: R; details?: string };

export function ReportDisclosure<R extends string>({
  reasons,
  summary,
  className,
  question,
  button,
  thanks,
  send,
}: {
  /** each reason's key and its words; the first is chosen to begin with */
  reasons: Record<R, string>;
  summary: string;
  className: string;
  question: string;
  button: string;
  thanks: string;
  send: (report: Report<R>) => Promise<unknown>;
}) {
  const keys = Object.keys(reasons) as R[];
  const { form, bind } = useFields<{ reason: R; details: string }>({ reason: keys[0] as R, details: '' });
  const { error, busy, done, submit } = useSubmit(() => {
    const { reason, details } = form;
    return send({ reason, ...(details.trim() ? { details } : {}) });
  });
  if (done) return <StatusLine>{thanks}</StatusLine>;
  return (
    <details className={className}>
      <summary>{summary}</summary>
      <Form onSubmit={submit} error={error} busy={busy} button={button}>
        <Field {...bind('reason', error)} label={question} options={keys} labels={reasons} />
        <Field {...bind('details', error)} label="Details (optional)" multiline />
      </Form>
    </details>
  );
}
