/**
 * The "Latest full run" section of bench/README.md, rendered from bench/results/latest.json so the
 * prose says only what the results show (no hand-typed figure):
 *   npx tsx bench/readme.ts          rewrites the section between the markers
 *   npx tsx bench/readme.ts --check  fails when the section and the JSON disagree
 * tests/unit/bench/readme.test.ts runs the same check in CI.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answersInOrder } from './harness/concurrent.ts';
import { type BenchResults, caseRows, fmt } from './harness/report.ts';

export const START =
  '<!-- results:start (rendered by `npx tsx bench/readme.ts` from bench/results/latest.json; do not edit) -->';
export const END = '<!-- results:end -->';

const DIR = import.meta.dirname;
export const README = path.join(DIR, 'README.md');
export const RESULTS = path.join(DIR, 'results', 'latest.json');

const int = (x: number) => Math.round(x).toLocaleString('en-US');
const range = (xs: number[], digits = 0) => {
  const ok = xs.filter(Number.isFinite);
  if (ok.length === 0) return '-';
  const lo = fmt(Math.min(...ok), digits);
  const hi = fmt(Math.max(...ok), digits);
  return lo === hi ? lo : `${lo}-${hi}`;
};

/** Each cold-init case over its SDK floor, where the run measured one. */
const floorRatios = (r: BenchResults) =>
  (r.coldInit ?? []).flatMap((c) => (c.floorMs ? [c.totalMs / c.floorMs] : []));

/** The section's Markdown (without the markers). */
export function renderResults(r: BenchResults): string {
  const out: string[] = [];
  const load = r.machine.load.map((l) => l.toFixed(2)).join(' / ');
  const busy = (r.machine.load[0] ?? 0) >= r.machine.cpus;
  out.push(
    `Run ended ${r.date.slice(0, 16).replace('T', ' ')} UTC (${r.mode} run${r.durationSeconds ? `, ${Math.round(r.durationSeconds / 60)} min` : ''}), ${r.machine.cpus} x ${r.machine.cpuModel}, ${r.machine.memoryGiB} GiB, Node ${r.machine.node}; load average at start ${load} (1 / 5 / 15 min)${busy ? `: at or above the ${r.machine.cpus} cores, the machine was shared with other work and timings are slower and noisier than on an idle machine` : ''}.`,
    `${r.settings.users} users; ${r.settings.sizes.map(int).join(' then ')} listed books. Measured calls per case and size: reads ${int(r.settings.iterations.read.measured)}, writes ${int(r.settings.iterations.write.measured)}, login ${int(r.settings.iterations.login.measured)} (after ${r.settings.iterations.read.warmup} / ${r.settings.iterations.write.warmup} / ${r.settings.iterations.login.warmup} warm-up). Every table and target: \`bench/results/latest.md\`; chart: \`bench/results/latest.png\`.`,
    '',
    '| endpoint | books | p50 ms | p99 ms | floor p50 ms | ratio | calls (floor) | capacity units (floor) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...caseRows(r.cases, ({ latency: l, cost: k }) => [
      fmt(l.endpoint.p50),
      fmt(l.endpoint.p99),
      fmt(l.floor.p50),
      fmt(l.ratio),
      `${fmt(k.calls)} (${fmt(k.floorCalls)})`,
      `${fmt(k.capacityUnits)} (${fmt(k.floorCapacityUnits)})`,
    ]),
    '',
  );

  const login = r.cases.find((c) => c.kind === 'login');
  if (login) {
    const shares = login.bySize.map((s) => 100 * (s.latency.hashing?.share ?? Number.NaN));
    const hashing = login.bySize.map((s) => s.latency.hashing?.p50 ?? Number.NaN);
    out.push(
      `Login: one password check (${r.settings.passwordHash}) took ${range(hashing)} ms, ${range(shares)} % of login's p50.`,
      '',
    );
  }

  if (r.http) {
    out.push(
      `Over HTTP (serverless offline, ${int(r.http.size)} books, ${r.http.connections} connections, ${r.http.durationSeconds} s per route): ` +
        r.http.results
          .map((h) => `${h.name} ${fmt(h.requestsPerSecond, 0)} req/s, p50 ${h.p50} ms, p99 ${h.p99} ms`)
          .join('; ') +
        '.',
      '',
    );
  }
  const lag = r.streamLag;
  if (lag) {
    out.push(
      `Stream lag over ${lag.posts} posts (local stack): searchable p50 ${fmt(lag.searchable.p50, 0)} ms / p99 ${fmt(lag.searchable.p99, 0)} ms; in the requester's matches ${fmt(lag.matched.p50, 0)} / ${fmt(lag.matched.p99, 0)} ms; match e-mail in the inbox ${fmt(lag.emailed.p50, 0)} / ${fmt(lag.emailed.p99, 0)} ms. Consumer: ${fmt(lag.burst.recordsPerSecond, 0)} stream records per second (${lag.burst.records} records of a burst of ${lag.burst.posts} posts in ${fmt(lag.burst.seconds, 1)} s).`,
      '',
    );
  }
  const cws = r.concurrentWrites ?? [];
  if (cws.length > 0) {
    out.push(
      `Concurrent writes (N clients posting, carting and checking out at once, in-process): ` +
        cws
          .map(
            (c) =>
              `${c.clients} clients ${fmt(c.requestsPerSecond, 0)} req/s, p50 ${fmt(c.latency.p50, 0)} ms, p99 ${fmt(c.latency.p99, 0)} ms, answers ${answersInOrder(
                c.answers,
              )
                .map(([kind, count]) => `${kind} ${count}`)
                .join(' / ')}`,
          )
          .join('; ') +
        '.',
      '',
    );
  }
  if (r.routes && r.routes.length > 0) {
    const calls = r.routes.map((x) => x.calls);
    out.push(
      `Every route: ${new Set(r.routes.map((x) => x.route)).size} of ${r.declaredRoutes ?? '?'} routes measured, ${range(calls)} DynamoDB calls per request (section 6 of latest.md).`,
      '',
    );
  }
  if (r.bundles.length > 0) {
    out.push(
      `Bundles: ${range(r.bundles.map((b) => b.bytes / 1024))} KB minified; import in a fresh process ${range(r.bundles.map((b) => b.importMs))} ms (median of ${r.bundles[0]?.runs ?? '?'} per function).` +
        ((r.coldInit ?? []).length > 0
          ? ` Cold init (import + first call with its first DynamoDB call): ${range((r.coldInit ?? []).map((c) => c.totalMs))} ms` +
            (floorRatios(r).length > 0 ? `, ${range(floorRatios(r), 2)} x its SDK floor.` : '.')
          : ''),
      '',
    );
  }

  const absent = [
    ...(r.streamLag === undefined ? ['the stream lag'] : []),
    ...(r.routes === undefined ? ['the every-route sweep'] : []),
    ...(r.coldInit === undefined ? ['cold init'] : []),
    ...(r.concurrentWrites === undefined ? ['the concurrent writes case'] : []),
  ];
  if (absent.length > 0) {
    out.push(
      `This run's results predate ${absent.join(', ')} and the floor fixes described above: they are not in it (run \`npm run bench\`, then \`npx tsx bench/readme.ts\`).`,
      '',
    );
  }

  const missed = r.targets.filter((t) => !t.met);
  out.push(`Targets: ${r.targets.length - missed.length} of ${r.targets.length} checks met.`);
  const byTarget = new Map<string, string[]>();
  for (const t of missed)
    byTarget.set(t.target, [...(byTarget.get(t.target) ?? []), `${t.subject} (${t.value})`]);
  if (byTarget.size > 0) {
    out.push(
      '',
      ...[...byTarget].map(([target, subjects]) => `- Missed **${target}**: ${subjects.join('; ')}.`),
    );
  }
  return out.join('\n');
}

/** `readme` with its section replaced by `section`; throws when the markers are missing. */
export function withSection(readme: string, section: string): string {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`bench/README.md has no results markers (${START} ... ${END})`);
  return `${readme.slice(0, a + START.length)}\n\n${section}\n\n${readme.slice(b)}`;
}

function main(): void {
  const results = JSON.parse(readFileSync(RESULTS, 'utf8')) as BenchResults;
  const current = readFileSync(README, 'utf8');
  const wanted = withSection(current, renderResults(results));
  if (process.argv.includes('--check')) {
    if (wanted !== current) {
      console.error(
        '[bench] bench/README.md disagrees with bench/results/latest.json: run npx tsx bench/readme.ts',
      );
      process.exit(1);
    }
    console.log('[bench] bench/README.md agrees with bench/results/latest.json');
    return;
  }
  writeFileSync(README, wanted);
  console.log('[bench] rendered the results section of bench/README.md');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
