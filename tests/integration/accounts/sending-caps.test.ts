/**
 * The per-source-IP and global hourly caps of the e-mail-sending routes (sign-up, resend, reset).
 * The caps are configuration read when the modules load, so they are set low before importing.
 */
import { describe, expect, it } from 'vitest';

process.env.MAIL_CAP_PER_IP_HOURLY = '3';
process.env.MAIL_CAP_GLOBAL_HOURLY = '5';

const { handler: signup } = await import('#functions/auth/signup.ts');
const { handler: resend } = await import('#functions/auth/resend-confirmation.ts');
const { handler: resetRequest } = await import('#functions/auth/password-reset-request.ts');
const { makeSignup, sendQueuedMail, uniqueEmail } = await import('#tests/helpers/accounts.ts');
const { sentEmails } = await import('#tests/helpers/e2e.ts');
const { makeEvent, makeContext } = await import('#tests/helpers/lambda.ts');
const { expectError } = await import('#tests/helpers/schema.ts');

/** A call from one source IP (API Gateway's requestContext.http.sourceIp). */
async function from(ip: string, handler: typeof signup, route: string, body: unknown) {
  const event = makeEvent({ method: 'POST', route, body });
  event.requestContext.http.sourceIp = ip;
  const res = (await handler(event, makeContext())) as {
    statusCode: number;
    headers: Record<string, string>;
    body: string;
  };
  return { status: res.statusCode, headers: res.headers, json: () => JSON.parse(res.body) };
}
const signUpFrom = (ip: string, body = makeSignup()) => from(ip, signup, '/api/auth/signup', body);
const mailsTo = async (address: string) =>
  (await sentEmails()).filter((m) => m.destination.to.includes(address));

describe('sending caps', () => {
  it('per source IP: past the cap, sign-up, resend and reset answer 429 with Retry-After and send nothing; another IP goes on; then the global cap stops every e-mail silently', async () => {
    const sent: string[] = [];
    for (let i = 0; i < 2; i++) {
      const body = makeSignup();
      expect((await signUpFrom('203.0.113.7', body)).status).toBe(202);
      sent.push(body.emailAddress);
    }
    // the third request from that IP is a reset request (it counts too, though no account exists)
    expect(
      (
        await from('203.0.113.7', resetRequest, '/api/auth/passwordResetRequest', {
          emailAddress: uniqueEmail(),
        })
      ).status,
    ).toBe(202);

    const refused = makeSignup();
    const res = await signUpFrom('203.0.113.7', refused);
    expect(res.status).toBe(429);
    expect(Number(res.headers['Retry-After'])).toBeGreaterThan(0);
    expectError(res.json(), 'TOO_MANY_REQUESTS');
    const resent = await from('203.0.113.7', resend, '/api/auth/resendConfirmation', {
      emailAddress: sent[0],
    });
    expect(resent.status).toBe(429);

    // another address of the network is not blocked
    const other = makeSignup();
    expect((await signUpFrom('198.51.100.1', other)).status).toBe(202);
    sent.push(other.emailAddress);
    await sendQueuedMail();
    for (const a of sent) expect(await mailsTo(a)).toHaveLength(1);
    expect(await mailsTo(refused.emailAddress)).toEqual([]);

    // 4 requests counted globally so far (the two 429s were stopped before the global count); the
    // 5th is within the cap, the 6th from a fresh IP answers 202 and sends nothing
    const fifth = makeSignup();
    expect((await signUpFrom('198.51.100.2', fifth)).status).toBe(202);
    const sixth = makeSignup();
    expect((await signUpFrom('198.51.100.3', sixth)).status).toBe(202);
    await sendQueuedMail();
    expect(await mailsTo(fifth.emailAddress)).toHaveLength(1);
    expect(await mailsTo(sixth.emailAddress)).toEqual([]);
  });
});
