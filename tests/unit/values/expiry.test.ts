import { describe, expect, it } from 'vitest';
import { expiresAfter } from '#lib/values/expiry.ts';

describe('expiresAfter (the ttl attribute of an item that expires)', () => {
  it('keeps an item at least the time asked: a moment inside a second rounds up', () => {
    expect(expiresAfter(new Date('2026-11-28T00:00:00.001Z'), 60)).toBe(
      Date.parse('2026-11-28T00:00:01Z') / 1000 + 60,
    );
    expect(expiresAfter(Date.parse('2026-11-28T00:00:00.999Z'))).toBe(
      Date.parse('2026-11-28T00:00:01Z') / 1000,
    );
  });

  it('leaves a whole second as it is', () => {
    expect(expiresAfter(new Date('2026-11-28T00:00:00Z'), 30)).toBe(
      Date.parse('2026-11-28T00:00:00Z') / 1000 + 30,
    );
  });
});
