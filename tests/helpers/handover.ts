/**
 * Hand-over points and proposals through the functions themselves (integration tests): the same
 * invocations the hand-over and job tests would otherwise each write out.
 */
import { handler as putPoint } from '#functions/dashboard/put-handover-point.ts';
import { handler as removePoint } from '#functions/dashboard/remove-handover-point.ts';
import { handler as proposeHandover } from '#functions/user/propose-handover.ts';
import { invoke } from '#tests/helpers/lambda.ts';

/** Open all week, around the clock (UTC days 1-7). */
export const ALL_WEEK = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, opens: '00:00', closes: '23:59' }));

/** POST /api/dashboard/putHandoverPoint as `token`'s holder (the raw reply). */
export const putPointAs = (token: string, body: Record<string, unknown>) =>
  invoke(putPoint, { method: 'POST', route: '/api/dashboard/putHandoverPoint', token, body });

/** POST /api/dashboard/removeHandoverPoint as `token`'s holder (the raw reply). */
export const removePointAs = (token: string, pointId: string) =>
  invoke(removePoint, {
    method: 'POST',
    route: '/api/dashboard/removeHandoverPoint',
    token,
    body: { pointId },
  });

/** POST /api/user/proposeHandover as `token`'s holder (the raw reply). */
export const proposeAs = (token: string, body: Record<string, unknown>) =>
  invoke(proposeHandover, { method: 'POST', route: '/api/user/proposeHandover', token, body });
