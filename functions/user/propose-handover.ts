import { Handover, ProposeBody } from '#lib/handover/schemas.ts';
import { proposeHandover } from '#lib/handover/service.ts';
import { http } from '#lib/http/index.ts';

/** POST /api/user/proposeHandover: the buyer or a seller of an order proposes a hand-over slot. */
export const handler = http(
  {
    body: ProposeBody,
    response: Handover,
    errors: [404, 409],
    summary:
      "Propose a hand-over slot for one seller's books in an order, at a point within its hours (buyer or that seller; replaces the seller's current hand-over)",
  },
  async ({ body, principal }) => proposeHandover(principal, body),
);
