import { DeactivateBody, DeactivateResult } from '#lib/dashboard/schemas.ts';
import { previewUnlisting, unlistStaleBooks } from '#lib/dashboard/unlisting.ts';
import { http } from '#lib/http/index.ts';

/** Work budget of one call, under API Gateway's 30 s limit (the function's timeout is 29 s). */
const BUDGET_MS = 25_000;

/** POST /api/dashboard/deactivateBooks: unlist status-0 books older than N days (default 62) (owner);
 * `dryRun: true` only counts them and shows the oldest few. */
export const handler = http(
  {
    role: 'owner',
    body: DeactivateBody,
    response: DeactivateResult,
    summary: 'Unlist stale listings and e-mail their owners (or, with dryRun, preview them)',
  },
  async ({ body, principal }) => {
    if (body.dryRun === true) return previewUnlisting(new Date(), body.olderThanDays);
    const deadline = Date.now() + BUDGET_MS;
    return unlistStaleBooks({
      now: new Date(),
      actor: principal.userId,
      olderThanDays: body.olderThanDays,
      timeLeftMs: () => deadline - Date.now(),
    });
  },
);
