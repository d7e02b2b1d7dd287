import { describe, expect, it } from 'vitest';
import { parseBasic, safeEqual } from '#lib/http/sample.ts';
import { formatPingTime } from '#lib/sample/clock.ts';

describe('the ping clock', () => {
  const instant = new Date('2026-03-07T21:05:09Z');
  it('formats DD.MM.YYYY, HH:MM:SS in 24 h', () => {
    expect(formatPingTime(instant, 'UTC')).toBe('07.03.2026, 21:05:09');
  });
  it('follows the configured time zone across midnight', () => {
    expect(formatPingTime(instant, 'Europe/Berlin')).toBe('07.03.2026, 22:05:09');
    expect(formatPingTime(instant, 'Asia/Tokyo')).toBe('08.03.2026, 06:05:09');
  });
  it('prints midnight as 00, not 24', () => {
    expect(formatPingTime(new Date('2026-01-01T00:00:00Z'), 'UTC')).toBe('01.01.2026, 00:00:00');
  });
});

describe('sample credentials', () => {
  it('compares strings of any length without throwing', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', 'x'.repeat(10_000))).toBe(false);
  });
  it('parses Basic credentials and refuses malformed ones', () => {
    const h = `Basic ${Buffer.from('user:pa:ss').toString('base64')}`;
    expect(parseBasic(h)).toEqual({ user: 'user', password: 'pa:ss' });
    expect(parseBasic(undefined)).toBeNull();
    expect(parseBasic('Basic !!!')).toBeNull();
    expect(parseBasic(`Basic ${Buffer.from('nocolon').toString('base64')}`)).toBeNull();
    expect(parseBasic('Bearer abc')).toBeNull();
  });
});
