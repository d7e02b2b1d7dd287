import { describe, expect, it } from 'vitest';
import { type SesFeedback, suppressionsFor } from '#lib/mail/feedback.ts';

const now = new Date('2026-11-22T10:00:00.000Z');
const bounce = (bounceType: string, ...to: string[]): SesFeedback => ({
  eventType: 'Bounce',
  mail: { messageId: 'm-1' },
  bounce: { bounceType, bouncedRecipients: to.map((emailAddress) => ({ emailAddress })) },
});

describe('SES feedback -> suppressions', () => {
  it('suppresses every recipient of a permanent (hard) bounce', () => {
    expect(suppressionsFor(bounce('Permanent', 'a@uni.edu', 'b@uni.edu'), now)).toEqual([
      { emailAddress: 'a@uni.edu', reason: 'bounce', suppressedAt: now.toISOString(), feedbackId: 'm-1' },
      { emailAddress: 'b@uni.edu', reason: 'bounce', suppressedAt: now.toISOString(), feedbackId: 'm-1' },
    ]);
  });

  it('suppresses nobody for a transient or undetermined bounce (SES retries those)', () => {
    expect(suppressionsFor(bounce('Transient', 'a@uni.edu'), now)).toEqual([]);
    expect(suppressionsFor(bounce('Undetermined', 'a@uni.edu'), now)).toEqual([]);
  });

  it('suppresses a complaining recipient', () => {
    const complaint: SesFeedback = {
      eventType: 'Complaint',
      mail: { messageId: 'm-2' },
      complaint: { complainedRecipients: [{ emailAddress: 'c@uni.edu' }] },
    };
    expect(suppressionsFor(complaint, now)).toEqual([
      { emailAddress: 'c@uni.edu', reason: 'complaint', suppressedAt: now.toISOString(), feedbackId: 'm-2' },
    ]);
  });

  it('ignores other events', () => {
    expect(suppressionsFor({ eventType: 'Delivery', mail: { messageId: 'm-3' } }, now)).toEqual([]);
  });
});
