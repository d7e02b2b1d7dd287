import { PointIdBody, RemovedPoint } from '#lib/handover/schemas.ts';
import { dropHandoverPoint } from '#lib/handover/service.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/dashboard/removeHandoverPoint: remove a hand-over point (admin, audited). */
export const handler = http(
  {
    role: 'admin',
    body: PointIdBody,
    response: RemovedPoint,
    errors: [404],
    summary: 'Remove a hand-over point; hand-overs already planned there keep its name and place (audited)',
  },
  async ({ body, principal }) => dropHandoverPoint(principal.userId, body),
);
