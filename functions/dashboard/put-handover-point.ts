import { HandoverPoint, PutPointBody } from '#lib/handover/schemas.ts';
import { saveHandoverPoint } from '#lib/handover/service.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/dashboard/putHandoverPoint: create a hand-over point, or replace one (admin, audited). */
export const handler = http(
  {
    role: 'admin',
    body: PutPointBody,
    response: HandoverPoint,
    errors: [404, 409],
    summary:
      'Create a hand-over point of a campus (no pointId) or replace an existing one, with its weekly hours (audited)',
  },
  async ({ body, principal }) => saveHandoverPoint(principal.userId, body),
);
