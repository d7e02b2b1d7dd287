/**
 * One book's dated steps on the order page (getOrder's `timeline`, docs/handover.md "The order's
 * timeline"): what happened and when, oldest first, then the steps still to come; a cancellation
 * with its reason, and whether the buyer was charged (then refunded) or not.
 */
import type { paths } from '#web/api.gen.ts';
import { STEP_LABELS } from '#web/ui/books.tsx';
import { exactText } from '#web/ui/when.ts';

type Step =
  paths['/api/user/getOrder/{orderId}']['get']['responses'][200]['content']['application/json']['data']['books'][number]['timeline'][number];

const when = (at: string | null) => (at ? exactText(at) : 'date not recorded');

export function Timeline({ steps }: { steps: Step[] }) {
  const done = new Set(steps.map((s) => s.step));
  const next = done.has('cancelled') ? [] : (['verified', 'delivered'] as const).filter((s) => !done.has(s));
  return (
    <ol className="timeline" aria-label="Steps">
      {steps.map((s) => (
        <li key={s.step} className="done">
          {s.step === 'cancelled'
            ? done.has('verified')
              ? 'Cancelled and refunded'
              : 'Cancelled, not charged'
            : STEP_LABELS[s.step]}{' '}
          {s.at ? <time dateTime={s.at}>{when(s.at)}</time> : when(null)}
          {s.reason ? `: ${s.reason}` : ''}
        </li>
      ))}
      {next.map((s) => (
        <li key={s}>{STEP_LABELS[s]}: not yet</li>
      ))}
    </ol>
  );
}
