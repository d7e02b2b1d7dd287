/** The order page's own server state: the caller's campus's hand-over points. */
import { api, call } from '#web/api.ts';
import { keys, read } from '#web/queries.ts';

export const handoverPointsQuery = read([...keys.orders, 'handoverPoints'], () =>
  call(api.GET('/api/user/getHandoverPoints')),
);
