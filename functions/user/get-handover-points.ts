import { HandoverPointList } from '#lib/handover/schemas.ts';
import { getHandoverPoints } from '#lib/handover/service.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/user/getHandoverPoints: the caller's campus's hand-over points with their opening hours. */
export const handler = http(
  {
    response: HandoverPointList,
    summary: "The hand-over points of the caller's campus, with their weekly opening hours",
  },
  async ({ principal }) => getHandoverPoints(principal.campus),
);
