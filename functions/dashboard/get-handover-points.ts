import { HandoverPointList, PointsQuery } from '#lib/handover/schemas.ts';
import { getHandoverPoints } from '#lib/handover/service.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/dashboard/getHandoverPoints?campus=: one campus's hand-over points, to edit them (admin). */
export const handler = http(
  {
    role: 'admin',
    query: PointsQuery,
    response: HandoverPointList,
    summary: "One campus's hand-over points, by name, with their weekly opening hours",
  },
  async ({ query }) => getHandoverPoints(query.campus),
);
