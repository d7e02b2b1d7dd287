import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LOCAL_DEFAULTS } from '#lib/config.ts';
import { api } from '#tests/helpers/e2e.ts';
import { expectDocumented } from '#tests/helpers/openapi.ts';

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
const GOOD = basic(LOCAL_DEFAULTS.SAMPLE_BASIC_USER, LOCAL_DEFAULTS.SAMPLE_BASIC_PASSWORD);
const SampleError = z.strictObject({ error: z.string(), code: z.literal('UNAUTHORIZED') });

function expect401(res: { status: number; headers: Headers; body: unknown; text: string }, route: string) {
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+"/);
  expect(SampleError.safeParse(res.body).success).toBe(true);
  expectDocumented(res, 'GET', route);
}

describe('GET /api/ping', () => {
  it('prints the current date-time as DD.MM.YYYY, HH:MM:SS for valid Basic credentials', async () => {
    const res = await api('GET', '/api/ping', { headers: { authorization: GOOD } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2}$/);
    expectDocumented(res, 'GET', '/api/ping');
    const [d, m, y] = res.text.split(',')[0]?.split('.') ?? [];
    const shown = Date.UTC(Number(y), Number(m) - 1, Number(d));
    expect(Math.abs(shown - Date.now())).toBeLessThan(2 * 86_400_000);
  });

  const bad: Array<[string, Record<string, string>]> = [
    ['no credentials', {}],
    ['a wrong password', { authorization: basic(LOCAL_DEFAULTS.SAMPLE_BASIC_USER, 'wrong') }],
    ['a wrong user', { authorization: basic('root', LOCAL_DEFAULTS.SAMPLE_BASIC_PASSWORD) }],
    ['an empty Basic header', { authorization: 'Basic ' }],
    ['undecodable Basic', { authorization: 'Basic %%%' }],
    ['no colon', { authorization: `Basic ${Buffer.from('justuser').toString('base64')}` }],
    ['a bearer token instead', { authorization: 'Bearer abc.def.ghi' }],
    ['a very long password', { authorization: basic(LOCAL_DEFAULTS.SAMPLE_BASIC_USER, 'x'.repeat(5000)) }],
  ];
  for (const [name, headers] of bad) {
    it(`answers 401 (never 500) for ${name}`, async () =>
      expect401(await api('GET', '/api/ping', { headers }), '/api/ping'));
  }
});

describe('GET /api/test', () => {
  it('returns { Name, Email } for valid Basic credentials and API key', async () => {
    const res = await api('GET', '/api/test', {
      headers: { authorization: GOOD, 'x-api-key': LOCAL_DEFAULTS.SAMPLE_API_KEY },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const parsed = z.strictObject({ Name: z.string(), Email: z.string() }).parse(res.body);
    expect(parsed.Name).toBe(LOCAL_DEFAULTS.SAMPLE_BASIC_USER);
    expectDocumented(res, 'GET', '/api/test');
  });

  const bad: Array<[string, Record<string, string>]> = [
    ['no credentials at all', {}],
    ['Basic but no API key', { authorization: GOOD }],
    ['Basic and a wrong API key', { authorization: GOOD, 'x-api-key': 'wrong' }],
    ['Basic and an empty API key', { authorization: GOOD, 'x-api-key': '' }],
    ['Basic and a very long API key', { authorization: GOOD, 'x-api-key': 'k'.repeat(4000) }],
    [
      'Basic and the key with one character more',
      { authorization: GOOD, 'x-api-key': `${LOCAL_DEFAULTS.SAMPLE_API_KEY}x` },
    ],
    ['the API key but no Basic', { 'x-api-key': LOCAL_DEFAULTS.SAMPLE_API_KEY }],
    [
      'the API key and wrong Basic',
      { authorization: basic('sample', 'nope'), 'x-api-key': LOCAL_DEFAULTS.SAMPLE_API_KEY },
    ],
  ];
  for (const [name, headers] of bad) {
    it(`answers 401 (never 500) for ${name}`, async () =>
      expect401(await api('GET', '/api/test', { headers }), '/api/test'));
  }
});
