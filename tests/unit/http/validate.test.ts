/**
 * The 400 details quote zod's messages. zod/mini (issue 19) loads no locale by itself, so #lib/zod.ts
 * configures plain-language ones (issue 32 item 5: shown under their fields, never schema text); checked in a fresh process that loads only what a bundle loads (in
 * this test process classic zod, imported by other modules, could have configured it already).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '..', '..', '..');

const SCRIPT = `
const z = await import('#lib/zod.ts');
const { validate } = await import('#lib/http/validate.ts');
const Body = z.strictObject({
  name: z.string().check(z.minLength(1)),
  edition: z.optional(z.number()),
  course: z.string().check(z.maxLength(10)),
  email: z.email(),
  condition: z.enum(['new', 'good']),
  price: z.int().check(z.minimum(0)),
  author: z.string(),
  tag: z.string().check(z.regex(/^a+$/, 'Only the letter a.')),
});
try {
  validate('body', Body, {
    name: '',
    edition: 'two',
    colour: 'red',
    course: 'MATH235-ABCDEF',
    email: 'not-mail',
    condition: 'worn',
    price: -1,
    tag: 'b',
  });
  console.log('accepted');
} catch (e) {
  console.log(JSON.stringify({ details: e.details, code: e.code }));
}
`;

describe('validation messages', () => {
  it("are plain sentences with zod/mini alone loaded, a schema's own message kept, unknown fields one by one", () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { code: string; details: unknown };
    expect(result.code).toBe('VALIDATION_FAILED');
    expect(result.details).toEqual([
      { field: 'name', in: 'body', message: 'Fill this in.' },
      { field: 'edition', in: 'body', message: 'Enter a number here.' },
      { field: 'course', in: 'body', message: 'Use at most 10 characters.' },
      { field: 'email', in: 'body', message: 'Enter a valid e-mail address.' },
      { field: 'condition', in: 'body', message: 'Choose one of: new, good.' },
      { field: 'price', in: 'body', message: 'Must be at least 0.' },
      { field: 'author', in: 'body', message: 'Fill this in.' },
      { field: 'tag', in: 'body', message: 'Only the letter a.' },
      { field: 'colour', in: 'body', message: 'Unknown field.' },
    ]);
  });
});
