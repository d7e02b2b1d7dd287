/**
 * Caps on the e-mail-sending routes anyone can call (sign-up, resend, password-reset request),
 * besides the per-address limits of rules.ts: per client IP (lib/http/client-address.ts) and hour (MAIL_CAP_PER_IP_HOURLY,
 * beyond it 429 with Retry-After: the caller learns only about their own address) and for the
 * whole service per hour (MAIL_CAP_GLOBAL_HOURLY, beyond it 202 as always and no e-mail, logged as
 * an error for the operators), so nobody can make the service mail thousands of addresses and
 * spoil its sending reputation. Both are sliding windows (lib/accounts/throttle.ts).
 */
import { config } from '#lib/config.ts';
import { logger } from '#lib/logger.ts';
import type { ThrottlePolicy } from './rules.ts';
import { takeAllowance, takeAttempt } from './throttle.ts';

export const SENDING_CAPS = {
  perIp: (): ThrottlePolicy => ({
    action: 'mail-ip',
    limit: config.MAIL_CAP_PER_IP_HOURLY,
    windowSeconds: 3600,
  }),
  global: (): ThrottlePolicy => ({
    action: 'mail-all',
    limit: config.MAIL_CAP_GLOBAL_HOURLY,
    windowSeconds: 3600,
  }),
};

/**
 * Counts one request of an e-mail-sending route. Throws 429 past the per-IP cap; false past the
 * global cap (send nothing, answer as usual); true otherwise.
 */
export async function takeSendingAllowance(sourceIp: string, now: Date = new Date()): Promise<boolean> {
  await takeAttempt(SENDING_CAPS.perIp(), sourceIp, now);
  const global = SENDING_CAPS.global();
  if (await takeAllowance(global, 'all', now)) return true;
  logger.error('global e-mail sending cap reached; sign-up, resend and reset e-mails are not sent', {
    limit: global.limit,
  });
  return false;
}
