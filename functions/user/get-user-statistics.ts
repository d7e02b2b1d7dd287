import { http } from '#lib/http/index.ts';
import { getUserStatistics } from '#lib/orders/history.ts';
import { UserStatistics } from '#lib/orders/schemas.ts';

/** GET /api/user/getUserStatistics: the caller's counters (one read). */
export const handler = http(
  {
    response: UserStatistics,
    summary: 'Books bought and sold, money made (status 3 only), active listings, open requests',
  },
  async ({ principal }) => getUserStatistics(principal.userId),
);
