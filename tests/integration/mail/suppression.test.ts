import type { SNSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler as signup } from '#functions/auth/signup.ts';
import { handler as feedback } from '#functions/mail/feedback.ts';
import { getSuppression } from '#lib/db/suppressions.ts';
import { sendMail } from '#lib/mail/send.ts';
import { recordedMetrics } from '#lib/metrics.ts';
import { makeSignup, sendQueuedMail, uniqueEmail } from '#tests/helpers/accounts.ts';
import { sentEmails } from '#tests/helpers/e2e.ts';
import { invoke } from '#tests/helpers/lambda.ts';

const mailsTo = async (address: string) =>
  (await sentEmails()).filter((m) => m.destination.to.some((t) => t.toLowerCase() === address.toLowerCase()));

/** What SNS hands the function for one SES event-publishing record. */
const snsEvent = (message: unknown): SNSEvent =>
  ({
    Records: [{ EventSource: 'aws:sns', Sns: { Message: JSON.stringify(message) } }],
  }) as unknown as SNSEvent;

const hardBounce = (address: string) => ({
  eventType: 'Bounce',
  mail: { messageId: `msg-${address}` },
  bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: address }] },
});

const mail = (to: string) => ({ to, subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' });

describe('bounce and complaint handling', () => {
  it('records a hard bounce; the app sends that address nothing more, others still get mail', async () => {
    const bounced = uniqueEmail('bounced');
    const other = uniqueEmail('other');
    expect(await sendMail(mail(bounced))).toBe('sent');
    expect(await mailsTo(bounced)).toHaveLength(1);

    // SES reports the address in upper case: the suppression still matches.
    expect(await feedback(snsEvent(hardBounce(bounced.toUpperCase())))).toEqual({ suppressed: 1 });
    expect(await getSuppression(bounced)).toMatchObject({ reason: 'bounce', feedbackId: expect.any(String) });

    const sentBefore = recordedMetrics('EmailsSent');
    expect(await sendMail(mail(bounced))).toBe('suppressed');
    expect(recordedMetrics('EmailsSent')).toBe(sentBefore);
    const res = await invoke(signup, {
      method: 'POST',
      route: '/api/auth/signup',
      body: makeSignup({ emailAddress: bounced }),
    });
    expect(res.status).toBe(202);
    expect(await sendQueuedMail()).toBe(1);
    expect(await mailsTo(bounced)).toHaveLength(1);

    const sent = recordedMetrics('EmailsSent');
    expect(await sendMail(mail(other))).toBe('sent');
    expect(await mailsTo(other)).toHaveLength(1);
    expect(recordedMetrics('EmailsSent')).toBe(sent + 1);
  });

  it('suppresses after a complaint, but not after a transient bounce', async () => {
    const complainer = uniqueEmail('complainer');
    const full = uniqueEmail('mailbox-full');
    await feedback(
      snsEvent({
        eventType: 'Complaint',
        mail: { messageId: 'c-1' },
        complaint: { complainedRecipients: [{ emailAddress: complainer }] },
      }),
    );
    await feedback(
      snsEvent({
        eventType: 'Bounce',
        mail: { messageId: 't-1' },
        bounce: { bounceType: 'Transient', bouncedRecipients: [{ emailAddress: full }] },
      }),
    );
    expect(await getSuppression(complainer)).toMatchObject({ reason: 'complaint', feedbackId: 'c-1' });
    expect(await getSuppression(full)).toBeNull();
    expect(await sendMail(mail(complainer))).toBe('suppressed');
    expect(await mailsTo(complainer)).toHaveLength(0);
    expect(await sendMail(mail(full))).toBe('sent');
    expect(await mailsTo(full)).toHaveLength(1);
  });

  it('ignores a message that is not an SES event', async () => {
    expect(await feedback(snsEvent({ hello: 'world' }))).toEqual({ suppressed: 0 });
  });
});
