import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** The top folders of the repository whose paths the docs name. */
const TOP = ['lib', 'functions', 'tests', 'scripts', 'bench', 'infra', 'web', 'docs'];
/**
 * A repository path: a top folder, a slash, then path characters. Not part of a longer word or
 * path (so `/api/docs` and `campus-books/docs` are no paths of this repository); a link of a page
 * in docs/ writes `../lib/...`, which the reader resolves first.
 */
const PATH = new RegExp(`(?<![\\w./-])(?:${TOP.join('|')})/[\\w./-]*`, 'g');

/** Build output the docs name, which git ignores (.gitignore): it exists only after a build or a run. */
const BUILT = ['web/dist', 'bench/results/tmp/'];
const exists = (path: string): boolean =>
  BUILT.some((built) => path.startsWith(built)) || existsSync(join(ROOT, path));

/** The repository paths a Markdown text names, without trailing sentence punctuation. */
function pathsNamed(text: string): string[] {
  const resolved = text.replaceAll('../', ' ');
  return [...new Set([...resolved.matchAll(PATH)].map((m) => m[0].replace(/[.,]+$/, '')))];
}

const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs')).flatMap((f) => (f.endsWith('.md') ? [`docs/${f}`] : [])),
];

describe('paths named in the docs', () => {
  it('reads paths the way a reader does, and reports one that does not exist', () => {
    const text =
      'See lib/db/keys.ts, [the runner](../lib/table/transact.ts) and `lib/nowhere/gone.ts`. Not /api/docs.';
    const named = pathsNamed(text);
    expect(named).toEqual(['lib/db/keys.ts', 'lib/table/transact.ts', 'lib/nowhere/gone.ts']);
    expect(named.filter((p) => !exists(p))).toEqual(['lib/nowhere/gone.ts']);
  });

  it.each(DOCS)('every repository path %s names exists', (doc) => {
    const named = pathsNamed(readFileSync(join(ROOT, doc), 'utf8'));
    expect(named.filter((p) => !exists(p))).toEqual([]);
  });

  it('reads README.md and the pages of docs/', () => {
    expect(DOCS.length).toBeGreaterThan(5);
    expect(DOCS).toContain('docs/data-layer.md');
  });
});
