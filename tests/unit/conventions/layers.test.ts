import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"`]([^'"`]+)['"`]/g;

function sources(dir: string): string[] {
  if (/\.tsx?$/.test(dir)) return [dir];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(c|m)?tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** `file:line -> specifier` for every import in `folder` whose specifier matches `forbidden`. */
function importsMatching(folder: string, forbidden: RegExp): string[] {
  return sources(join(ROOT, folder)).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) =>
        [...line.matchAll(IMPORT)]
          .map((m) => m[1] ?? '')
          .filter((spec) => forbidden.test(spec))
          .map((spec) => `${relative(ROOT, file)}:${i + 1} -> ${spec}`),
      ),
  );
}

describe('layers', () => {
  it('sees an import of lib/http when one is written', () => {
    IMPORT.lastIndex = 0;
    const line = `import { x } from '#lib/http/auth.ts';`;
    expect([...line.matchAll(IMPORT)].map((m) => m[1])).toEqual(['#lib/http/auth.ts']);
  });

  it('nothing under lib/db imports lib/http: the store knows nothing of HTTP', () => {
    expect(importsMatching('lib/db', /^#lib\/http\/|^\.\/http\/|^\.\.\/http\//)).toEqual([]);
  });

  it('the table engine (lib/table) imports no entity of lib/db: it knows items, not books or users', () => {
    expect(importsMatching('lib/table', /^#lib\/db\/|^\.\.\//)).toEqual([]);
  });

  it('turns cursors into positions and back only in lib/table/page.ts: one rule for every paged read', () => {
    const CURSOR_CODEC = /\b(encodeCursor|decodeCursor)\b/;
    const owners = new Set(['lib/table/cursor.ts', 'lib/table/page.ts']);
    const offenders = ['lib', 'functions', 'bench', 'scripts'].flatMap((folder) =>
      sources(join(ROOT, folder))
        .map((file) => relative(ROOT, file))
        .filter((file) => !owners.has(file) && CURSOR_CODEC.test(readFileSync(join(ROOT, file), 'utf8'))),
    );
    expect(offenders).toEqual([]);
  });

  it('declares one page type, Page<T> of lib/table/page.ts', () => {
    const PAGE_TYPE = /^\s*(?:export\s+)?(?:interface|type)\s+(\w*Page)\b(?:<[^>]*>)?\s*(?:=|\{|extends)/gm;
    const declared = sources(join(ROOT, 'lib')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(PAGE_TYPE)].map((m) => `${relative(ROOT, file)} ${m[1]}`),
    );
    expect(declared).toEqual(['lib/table/page.ts Page']);
  });

  it('the domain errors import nothing', () => {
    const text = readFileSync(join(ROOT, 'lib', 'errors.ts'), 'utf8');
    expect(text).not.toMatch(/\bimport\b/);
    expect(text).not.toMatch(/\b(4\d\d|5\d\d)\b/);
  });
});
