/** The answer to a hand-over proposal (Accept / Decline), the same on the order page and in the thread. */
import { useQueryClient } from '@tanstack/react-query';
import { ApiFailure, api, call } from '#web/api.ts';
import { keys } from '#web/queries.ts';
import { ActionButton, ErrorNote } from '#web/ui/form.tsx';
import { useAction } from '#web/ui/hooks.ts';

/** What an answer changes: the order, the notifications, the thread (which gains the answer's message). */
const ANSWER_CHANGES = [keys.orders, keys.notifications, keys.conversations] as const;

/** The refusals that mean "what you see is out of date": a newer proposal, or an answer already given. */
const STALE = new Set(['PROPOSAL_REPLACED', 'ALREADY_ANSWERED']);

/**
 * Accept / Decline of a proposal, for the side that did not propose it. `current` is whether the
 * page still holds it as the hand-over's latest step (no buttons otherwise). An answer to a proposal
 * that was replaced or answered meanwhile (409) shows the service's sentence and refreshes the
 * order and the thread, so the page shows what is current; the sentence stays until the next answer.
 */
export function AnswerHandover({ proposalId, current }: { proposalId: string; current: boolean }) {
  const client = useQueryClient();
  const act = useAction(...ANSWER_CHANGES);
  const answer = (accept: boolean) => async () => {
    try {
      return await call(api.POST('/api/user/answerHandover', { body: { proposalId, accept } }));
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 409 && STALE.has(err.body?.code ?? '')) {
        await Promise.all(ANSWER_CHANGES.map((queryKey) => client.invalidateQueries({ queryKey })));
      }
      throw err;
    }
  };
  return (
    <>
      <ErrorNote error={act.error} />
      {current && (
        <p className="actions">
          <ActionButton act={act} action={answer(true)}>
            Accept the hand-over
          </ActionButton>
          <ActionButton act={act} action={answer(false)} className="danger">
            Decline the hand-over
          </ActionButton>
        </p>
      )}
    </>
  );
}
