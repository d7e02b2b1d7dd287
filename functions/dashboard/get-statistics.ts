import { Statistics } from '#lib/dashboard/schemas.ts';
import { getStatistics } from '#lib/dashboard/statistics.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/dashboard/getStatistics: service-wide counters (admin). */
export const handler = http(
  { role: 'admin', response: Statistics, summary: 'Service statistics' },
  async () => getStatistics(),
);
