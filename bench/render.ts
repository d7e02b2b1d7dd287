/**
 * Re-renders latest.md and latest.png from latest.json (e.g. after writing an explanation of a
 * missed target in bench/explanations.ts): `npx tsx bench/render.ts [results folder]`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { explanations } from './explanations.ts';
import { writeChart } from './harness/chart.ts';
import type { BenchResults } from './harness/report.ts';
import { toMarkdown } from './harness/report.ts';

const dir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, 'results'));
const results = JSON.parse(readFileSync(path.join(dir, 'latest.json'), 'utf8')) as BenchResults;
writeFileSync(path.join(dir, 'latest.md'), toMarkdown(results, explanations));
await writeChart(results, path.join(dir, 'latest.png'));
console.log(`[bench] rendered ${path.relative(process.cwd(), dir) || '.'}/latest.{md,png}`);
