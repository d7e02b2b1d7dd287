import { Statistics } from '#lib/admin/schemas.ts';
import { getStatistics } from '#lib/admin/statistics.ts';
import { http } from '#lib/http/index.ts';

/** GET /api/dashboard/getStatistics: service-wide counters (admin). */
export const handler = http(
  { auth: 'required', role: 1, response: Statistics, errors: [403], summary: 'Service statistics' },
  async () => getStatistics(),
);
