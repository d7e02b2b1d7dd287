/**
 * The README is the front door: short, with a table of contents whose anchors exist, and every
 * path and link it names present in this repository (no link leads outside it). The pages it links
 * (docs/*.md, bench/README.md) are held to the same rule for their links.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MAX_LINES = 300;
/** Paths the README names that exist only once something ran (git-ignored). */
const MADE_AT_RUN_TIME = ['.local-data/', '.serverless/', 'bench/results/tmp/'];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const withoutCode = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');
const headings = (text: string) =>
  [...withoutCode(text).matchAll(/^(#{1,6}) (.+)$/gm)].map((m) => ({
    level: m[1]?.length ?? 0,
    text: m[2] ?? '',
  }));
const links = (text: string) =>
  [...withoutCode(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? '');

/** Problems with the links of a Markdown file at `file` (relative to the repository root). */
function linkProblems(file: string, text: string, root = ROOT): string[] {
  const problems: string[] = [];
  const anchorsOf = (target: string) =>
    new Set(
      headings(target === file ? text : readFileSync(join(root, target), 'utf8')).map((h) => slug(h.text)),
    );
  for (const link of links(text)) {
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(link)) {
      problems.push(`${file}: ${link} leads outside the repository`);
      continue;
    }
    const [path = '', anchor] = link.split('#');
    const target = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
    if (target.startsWith(`..${sep}`) || target === '..' || link.startsWith('/')) {
      problems.push(`${file}: ${link} leads outside the repository`);
      continue;
    }
    if (!existsSync(join(root, target))) {
      problems.push(`${file}: ${link} does not exist`);
      continue;
    }
    if (anchor && target.endsWith('.md') && !anchorsOf(target).has(anchor))
      problems.push(`${file}: ${link} names no heading of ${target}`);
  }
  if (text.includes('../shared')) problems.push(`${file}: names a file outside the repository (../shared)`);
  return problems;
}

/** Repository paths written as code (`lib/db/keys.ts`, `scripts/local/`) that do not exist. */
function missingPaths(text: string, root = ROOT): string[] {
  const tokens = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1] ?? '');
  const paths = tokens.filter(
    (t) =>
      !/[<>{}*?=@#:$|]/.test(t) &&
      !t.startsWith('/') &&
      (/^\.?[\w-]+(\/[\w.-]+)*\/[\w.-]*$/.test(t) ||
        /^\.?[\w.-]+\.(ts|ya?ml|json|md|cjs|mjs)$/.test(t) ||
        t === '.nvmrc'),
  );
  return [...new Set(paths)].filter(
    (p) => !MADE_AT_RUN_TIME.some((r) => p.startsWith(r)) && !existsSync(join(root, p)),
  );
}

/** Problems with the table of contents: missing, an anchor with no heading, a section left out. */
function tocProblems(text: string): string[] {
  const sections = headings(text).filter((h) => h.level === 2 && h.text !== 'Contents');
  const toc = /^## Contents\n+((?:- .+\n)+)/m.exec(withoutCode(text))?.[1];
  if (!toc) return ['no "## Contents" list'];
  const anchors = [...toc.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1] ?? '');
  const known = new Set(headings(text).map((h) => slug(h.text)));
  return [
    ...anchors.filter((a) => !known.has(a)).map((a) => `contents: #${a} names no heading`),
    ...sections.filter((s) => !anchors.includes(slug(s.text))).map((s) => `contents: "${s.text}" is missing`),
  ];
}

const markdownPages = () => [
  'README.md',
  'bench/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README.md, the front door', () => {
  it(`has at most ${MAX_LINES} lines`, () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(MAX_LINES);
  });

  it('has a table of contents listing every section, each anchor a heading', () => {
    expect(tocProblems(readme)).toEqual([]);
  });

  it('names only paths that exist in the repository', () => {
    expect(missingPaths(readme)).toEqual([]);
  });

  it('links only to files and headings in the repository, as do the pages it links', () => {
    const pages = markdownPages();
    expect(pages).toEqual(expect.arrayContaining(['docs/design.md', 'docs/endpoints.md']));
    expect(pages.flatMap((p) => linkProblems(p, readFileSync(join(ROOT, p), 'utf8')))).toEqual([]);
  });

  it('links every page of docs/ and bench/README.md from its "More documentation" list', () => {
    const more = /^## More documentation\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1] ?? '';
    const linked = links(more).map((l) => l.split('#')[0]);
    for (const page of markdownPages().filter((p) => p !== 'README.md')) expect(linked, page).toContain(page);
  });

  it('catches what it checks for', () => {
    const bad = [
      '# T',
      '## Contents',
      '- [Gone](#gone)',
      '## Here',
      'See [the contract](../shared/design/API.md), [a site](https://example.com),',
      '[no file](docs/nothing.md), [no heading](docs/design.md#nothing) and `lib/nothing.ts`.',
    ].join('\n');
    expect(tocProblems(bad)).toEqual(['contents: #gone names no heading', 'contents: "Here" is missing']);
    expect(linkProblems('README.md', bad)).toEqual([
      'README.md: #gone names no heading of README.md',
      'README.md: ../shared/design/API.md leads outside the repository',
      'README.md: https://example.com leads outside the repository',
      'README.md: docs/nothing.md does not exist',
      'README.md: docs/design.md#nothing names no heading of docs/design.md',
      'README.md: names a file outside the repository (../shared)',
    ]);
    expect(missingPaths(bad)).toEqual(['lib/nothing.ts']);
    expect(slug('Set-up: two commands')).toBe('set-up-two-commands');
  });
});
