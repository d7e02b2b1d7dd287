import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FOLDERS = ['lib', 'tests', 'bench', 'scripts', 'functions'];
// Static import/export, import(), vi.mock() and vi.importActual() with a parent-relative specifier.
const PARENT_IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|vi\.(?:mock|doMock|importActual)\(\s*)['"`]\.\.\//;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'results' ? [] : sources(path);
    return /\.(c|m)?tsx?$/.test(entry.name) ? [path] : [];
  });
}

// kebab-case words, then dotted suffixes: `book-api.ts`, `search.test.ts`, `api.gen.ts`, `autocannon.d.ts`.
const KEBAB_FILE = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+)*\.(?:c|m)?tsx?$/;

describe('file names', () => {
  it('tells a kebab-case name from a camelCase or PascalCase one', () => {
    expect(
      ['get-books.ts', 'search.test.ts', 'api.gen.ts', 'autocannon.d.ts'].every((n) => KEBAB_FILE.test(n)),
    ).toBe(true);
    expect(['getBooks.ts', 'App.tsx', 'get_books.ts'].some((n) => KEBAB_FILE.test(n))).toBe(false);
  });

  it('names every source file in one case style, kebab-case (handlers, lib, tests, bench, scripts, web)', () => {
    const offenders = [...FOLDERS, 'web/src', 'infra']
      .flatMap((folder) => sources(join(ROOT, folder)))
      .map((file) => relative(ROOT, file))
      .filter((file) => !KEBAB_FILE.test(file.split('/').at(-1) ?? ''));
    expect(offenders).toEqual([]);
  });
});

describe('import style', () => {
  it('finds a parent-relative import when one is written', () => {
    const up = '..';
    expect(PARENT_IMPORT.test(`const m = await import("${up}/${up}/lib/x.ts");`)).toBe(true);
    expect(PARENT_IMPORT.test(`vi.mock('${up}/db/client.ts')`)).toBe(true);
    expect(PARENT_IMPORT.test(`import { a } from '#lib/db/keys.ts';`)).toBe(false);
  });

  it('has no parent-relative import in lib, tests, bench, scripts or functions: the #aliases are used instead', () => {
    const offenders = FOLDERS.flatMap((folder) =>
      sources(join(ROOT, folder)).flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) => (PARENT_IMPORT.test(line) ? [`${relative(ROOT, file)}:${i + 1}`] : [])),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('imports zod in lib and functions only as `* as z` from #lib/zod.ts (zod/mini with English messages, tree-shaken)', () => {
    // Classic zod or a named `{ z }` import would put 190-430 KB of zod back in every bundle.
    const ZOD_IMPORT = /\bfrom\s*['"](zod(?:\/[^'"]*)?|#lib\/zod\.ts)['"]/;
    const NAMESPACE = /^import (?:type )?\* as z from '#lib\/zod\.ts';$/;
    const offenders = ['lib', 'functions'].flatMap((folder) =>
      sources(join(ROOT, folder))
        .filter((file) => relative(ROOT, file) !== join('lib', 'zod.ts'))
        .flatMap((file) =>
          readFileSync(file, 'utf8')
            .split('\n')
            .flatMap((line, i) =>
              ZOD_IMPORT.test(line) && !NAMESPACE.test(line)
                ? [`${relative(ROOT, file)}:${i + 1}: ${line}`]
                : [],
            ),
        ),
    );
    expect(offenders).toEqual([]);
    expect(NAMESPACE.test("import { z } from '#lib/zod.ts';")).toBe(false);
    expect(ZOD_IMPORT.test("import { z } from 'zod';")).toBe(true);
  });
});
