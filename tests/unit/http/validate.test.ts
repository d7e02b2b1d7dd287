/**
 * The 400 details quote zod's messages. zod/mini (issue 19) loads no locale by itself, so #lib/zod.ts
 * configures the English one; checked in a fresh process that loads only what a bundle loads (in
 * this test process classic zod, imported by other modules, could have configured it already).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '..', '..', '..');

const SCRIPT = `
const z = await import('#lib/zod.ts');
const { validate } = await import('#lib/http/validate.ts');
const Body = z.strictObject({ name: z.string().check(z.minLength(1)), edition: z.optional(z.number()) });
try {
  validate('body', Body, { name: '', edition: 'two', colour: 'red' });
  console.log('accepted');
} catch (e) {
  console.log(JSON.stringify({ details: e.details, code: e.code }));
}
`;

describe('validation messages', () => {
  it("are zod's English ones with zod/mini alone loaded, unknown fields listed one by one", () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { code: string; details: unknown };
    expect(result.code).toBe('VALIDATION_FAILED');
    expect(result.details).toEqual([
      { field: 'name', in: 'body', message: 'Too small: expected string to have >=1 characters' },
      { field: 'edition', in: 'body', message: 'Invalid input: expected number, received string' },
      { field: 'colour', in: 'body', message: 'Unknown field.' },
    ]);
  });
});
