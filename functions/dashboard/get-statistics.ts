import { Statistics, StatisticsQuery } from '#lib/dashboard/schemas.ts';
import { getStatistics } from '#lib/dashboard/statistics.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/dashboard/getStatistics?weeks=&campus=: service-wide counters and weekly figures (admin). */
export const handler = http(
  {
    role: 'admin',
    query: StatisticsQuery,
    response: Statistics,
    summary:
      'Service statistics: totals, and orders, gross, fees and new listings by week, of a campus or all',
  },
  async ({ query }) => getStatistics(query),
);
