import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
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

/**
 * The floors of lib/ and functions/, top to bottom. A file may import its own floor or any floor
 * below it, never one above: handlers, then the HTTP layer, then the domains (each its own floor,
 * in this order), then the entities, the table engine, and the plain values with the shared
 * leaves (with the generated API description the docs routes serve). Each entry is a folder
 * (ending in `/`) or a file.
 */
const FLOORS: readonly (readonly string[])[] = [
  ['functions/'],
  ['lib/http/'],
  ['lib/privacy/'],
  ['lib/dashboard/'],
  ['lib/handover/'],
  ['lib/conversations/'],
  ['lib/moderation/'],
  ['lib/matching/'],
  ['lib/orders/'],
  ['lib/saved/'],
  ['lib/cart/'],
  ['lib/photos/'],
  ['lib/books/'],
  ['lib/accounts/'],
  ['lib/notifications/'],
  ['lib/outbox/'],
  ['lib/preferences/'],
  ['lib/mail/'],
  ['lib/streams/'],
  ['lib/docs/', 'lib/sample/'],
  ['lib/db/'],
  ['lib/table/'],
  [
    'lib/values/',
    'lib/aws/',
    'lib/errors.ts',
    'lib/config.ts',
    'lib/logger.ts',
    'lib/metrics.ts',
    'lib/zod.ts',
    'docs/openapi.json',
  ],
];

/** The floor of a repository path, counted from the bottom (0), or -1 when no floor holds it. */
function floorOf(path: string): number {
  const index = FLOORS.findIndex((floor) =>
    floor.some((entry) => path === entry || (entry.endsWith('/') && path.startsWith(entry))),
  );
  return index < 0 ? -1 : FLOORS.length - 1 - index;
}

/** The repository path an import of `file` names, or null for a package or a Node module. */
function target(file: string, spec: string): string | null {
  if (spec.startsWith('#')) return spec.slice(1);
  if (spec.startsWith('.')) return join(dirname(file), spec);
  return null;
}

/** `file -> spec` for each import of `file` (a repository path) that runs up a floor or leaves them all. */
function upwardImports(file: string, text: string): string[] {
  const own = floorOf(file);
  return [...text.matchAll(IMPORT)].flatMap((m) => {
    const spec = m[1] ?? '';
    const to = target(file, spec);
    if (to === null) return [];
    const floor = floorOf(to);
    return floor < 0 || own < 0 || floor > own ? [`${file} -> ${spec}`] : [];
  });
}

describe('layers', () => {
  it('sees an import of lib/http when one is written', () => {
    IMPORT.lastIndex = 0;
    const line = `import { x } from '#lib/http/auth.ts';`;
    expect([...line.matchAll(IMPORT)].map((m) => m[1])).toEqual(['#lib/http/auth.ts']);
  });

  it('every file of lib/ and functions/ stands on a declared floor', () => {
    const files = ['lib', 'functions'].flatMap((folder) =>
      sources(join(ROOT, folder)).map((f) => relative(ROOT, f)),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => floorOf(file) < 0)).toEqual([]);
  });

  it('every import in lib/ and functions/ goes to its own floor or lower', () => {
    const offenders = ['lib', 'functions'].flatMap((folder) =>
      sources(join(ROOT, folder)).flatMap((file) =>
        upwardImports(relative(ROOT, file), readFileSync(file, 'utf8')),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('the floor check catches an import that runs back up, and lets a downward or same-floor one pass', () => {
    expect(upwardImports('lib/db/books.ts', `import { RawReply } from '#lib/http/index.ts';`)).toEqual([
      'lib/db/books.ts -> #lib/http/index.ts',
    ]);
    expect(upwardImports('lib/errors.ts', `import { http } from './http/index.ts';`)).toEqual([
      'lib/errors.ts -> ./http/index.ts',
    ]);
    expect(
      upwardImports('lib/books/inputs.ts', `const m = await import('#lib/orders/checkout.ts');`),
    ).toEqual(['lib/books/inputs.ts -> #lib/orders/checkout.ts']);
    expect(upwardImports('lib/accounts/login.ts', `import { x } from '#tests/helpers/users.ts';`)).toEqual([
      'lib/accounts/login.ts -> #tests/helpers/users.ts',
    ]);
    const fine = [
      `import { getBook } from '#lib/db/books.ts';`,
      `import { transactWrite } from '#lib/table/transact.ts';`,
      `import { toCents } from '#lib/values/money.ts';`,
      `import { normaliseEmail } from './rules.ts';`,
      `import { z } from 'zod/mini';`,
    ].join('\n');
    expect(upwardImports('lib/accounts/login.ts', fine)).toEqual([]);
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
