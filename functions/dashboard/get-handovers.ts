import { getHandoversOfDay } from '#lib/dashboard/listings.ts';
import { AdminHandoverList, HandoversQuery } from '#lib/dashboard/schemas.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/dashboard/getHandovers: the agreed hand-overs of a day (default today), so each point is staffed (admin). */
export const handler = http(
  {
    role: 'admin',
    query: HandoversQuery,
    response: AdminHandoverList,
    paged: true,
    summary: 'Agreed hand-overs of one day (default today, UTC), of every point or of one, earliest first',
  },
  async ({ query }) => getHandoversOfDay(query),
);
