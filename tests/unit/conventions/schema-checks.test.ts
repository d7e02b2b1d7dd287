/**
 * A schema's checks go in one `.check(a, b, c)`, never `.check(a).check(b).check(c)`: zod copies the
 * schema on every `.check(...)` call, and every function builds its schemas at each cold start (about
 * 100 copies in postBook's bundle before this rule; bench/README.md, "What is in the gap").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `.check(` ... `)` then `.check(` again: arguments without a parenthesis that is not closed. */
const CHAINED = /\.check\((?:[^()]|\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))*\)\s*\.check\(/;

describe('schema checks', () => {
  it('finds a chained check, also across lines and with nested calls', () => {
    expect(CHAINED.test('z.string().check(z.trim()).check(z.minLength(1))')).toBe(true);
    expect(CHAINED.test('z.number()\n  .check(z.gte(0, f(1)))\n  .check(z.lte(9))')).toBe(true);
    expect(CHAINED.test('z.string().check(z.trim(), z.minLength(1))')).toBe(false);
  });

  it('are given in one .check call in the service code (lib, functions)', () => {
    const offenders = ['lib', 'functions']
      .flatMap((folder) => sources(join(ROOT, folder)))
      .filter((file) => CHAINED.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });
});
