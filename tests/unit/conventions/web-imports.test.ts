import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const WEB = join(ROOT, 'web', 'src');
// Static imports and re-exports (type-only ones too) and import(): every edge of the module graph.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"`](#web\/[^'"`]+|\.\/[^'"`]+)['"`]/g;
const GENERATED = 'api.gen.ts';
const MAX_LINES = 300;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The web/src files (paths relative to web/src) each file imports, from the files' text. */
function importGraph(files: Record<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of Object.entries(files)) {
    const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
    const targets = [...text.matchAll(IMPORT)]
      .map((m) => m[1] ?? '')
      .map((spec) => (spec.startsWith('#web/') ? spec.slice('#web/'.length) : dir + spec.slice(2)))
      .filter((target) => target in files);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every import circle, each written `a -> b -> a` from its first file in sorted order. */
function circles(graph: Map<string, string[]>): string[] {
  const found = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        const loop = path.slice(path.indexOf(next));
        const start = loop.indexOf([...loop].sort()[0] ?? next);
        const turned = [...loop.slice(start), ...loop.slice(0, start)];
        found.add([...turned, turned[0]].join(' -> '));
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return [...found].sort();
}

function webSources(): Record<string, string> {
  return Object.fromEntries(
    sources(WEB).map((file) => [relative(WEB, file).split('\\').join('/'), readFileSync(file, 'utf8')]),
  );
}

describe('web app imports', () => {
  it('finds an import circle when one is written, through #web aliases, ./ paths and import()', () => {
    const files = {
      'shell/app.tsx': "import { Page } from '#web/features/a/page.tsx';\nexport const useSession = 1;",
      'features/a/page.tsx': "import {\n  helper,\n} from './helper.ts';",
      'features/a/helper.ts':
        "import type { X } from '#web/ui/x.tsx';\nconst l = () => import('#web/shell/app.tsx');",
      'ui/x.tsx': "import '#web/styles.css';\nexport type X = 1;",
      'ui/y.tsx': "import { z } from '#web/ui/z.tsx';",
      'ui/z.tsx': "export { y } from '#web/ui/y.tsx';",
    };
    expect(circles(importGraph(files))).toEqual([
      'features/a/helper.ts -> shell/app.tsx -> features/a/page.tsx -> features/a/helper.ts',
      'ui/y.tsx -> ui/z.tsx -> ui/y.tsx',
    ]);
    expect(circles(importGraph({ ...files, 'ui/z.tsx': 'export const y = 1;' }))).toEqual([
      'features/a/helper.ts -> shell/app.tsx -> features/a/page.tsx -> features/a/helper.ts',
    ]);
  });

  it('reads the real graph: the shell imports the features, which import the shared pieces', () => {
    const graph = importGraph(webSources());
    expect(graph.get('main.tsx')).toContain('shell/app.tsx');
    expect(graph.get('shell/routes.tsx')).toContain('features/browse/browse-page.tsx');
    expect(graph.get('shell/routes.tsx')).toContain('features/dashboard/dashboard-page.tsx');
    expect(graph.get('ui/books.tsx')).toContain('ui/photos.tsx');
  });

  it('has no import circle in web/src', () => {
    expect(circles(importGraph(webSources()))).toEqual([]);
  });

  it('points the arrows one way: main -> shell -> one feature -> ui and the root modules', () => {
    const folder = (file: string) =>
      file.startsWith('features/') ? file.split('/').slice(0, 2).join('/') : file.split('/')[0];
    const wrong = [...importGraph(webSources())].flatMap(([file, targets]) =>
      targets
        .filter((target) => {
          const from = folder(file) ?? '';
          const to = folder(target) ?? '';
          if (to === 'shell') return from !== 'shell' && file !== 'main.tsx';
          if (to.startsWith('features/')) return from !== 'shell' && from !== to;
          if (to === 'ui') return !(from === 'ui' || from === 'shell' || from.startsWith('features/'));
          return false;
        })
        .map((target) => `${file} -> ${target}`),
    );
    expect(wrong).toEqual([]);
  });

  it('keeps every hand-written web/src file within 300 lines', () => {
    const long = Object.entries(webSources())
      .filter(([file, text]) => file !== GENERATED && text.split('\n').length > MAX_LINES)
      .map(([file, text]) => `${file}: ${text.split('\n').length} lines`);
    expect(long).toEqual([]);
  });
});

describe('web app server state', () => {
  // Reads are TanStack queries declared in a `queries.ts` (keyed per resource, cached, invalidated
  // by the mutations that change them). The export download is an action, not state to keep.
  const READ = /\bapi\.GET\(/;
  const MAY_READ = (file: string) => file === 'queries.ts' || file.endsWith('/queries.ts');
  const DOWNLOAD = 'features/account/my-data-page.tsx';

  it('sees a read when one is written', () => {
    expect(READ.test("const r = await call(api.GET('/api/user/getCartItems'));")).toBe(true);
    expect(READ.test("await call(api.POST('/api/user/addToCart', { body }));")).toBe(false);
  });

  it('reads the API only in queries.ts modules (no hand-written loading hook, no useLoad)', () => {
    const files = webSources();
    const readers = Object.entries(files)
      .filter(([file, text]) => file !== GENERATED && READ.test(text) && !MAY_READ(file))
      .map(([file]) => file);
    expect(readers).toEqual([DOWNLOAD]);
    expect(Object.entries(files).filter(([, text]) => /\buseLoad\b/.test(text))).toEqual([]);
  });
});
