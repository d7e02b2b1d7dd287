import { DeactivateBody, DeactivateResult } from '#lib/dashboard/schemas.ts';
import { unlistStaleBooks } from '#lib/dashboard/unlisting.ts';
import { http } from '#lib/http/index.ts';

/** Work budget of one call, under API Gateway's 30 s limit (the function's timeout is 29 s). */
const BUDGET_MS = 25_000;

/** POST /api/dashboard/deactivateBooks: unlist status-0 books older than N days (default 62) (owner). */
export const handler = http(
  {
    role: 'owner',
    body: DeactivateBody,
    response: DeactivateResult,
    summary: 'Unlist stale listings and e-mail their owners',
  },
  async ({ body, principal }) => {
    const deadline = Date.now() + BUDGET_MS;
    return unlistStaleBooks({
      now: new Date(),
      actor: principal.userId,
      olderThanDays: body.olderThanDays,
      timeLeftMs: () => deadline - Date.now(),
    });
  },
);
