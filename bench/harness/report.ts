/**
 * The results of a run: the JSON document, the targets checked against it, and the Markdown
 * report (bench/results/latest.md for a full run).
 */

import { BUNDLE_CAP_BYTES, bundleCapOf } from './bundle-caps.ts';
import type { ColdInitResult } from './coldinit.ts';
import type { BundleResult } from './coldstart.ts';
import { answersInOrder, type ConcurrentResult } from './concurrent.ts';
import type { ConsumerWrites } from './consumer-writes.ts';
import type { HttpResult } from './http-load.ts';
import { LIGHTHOUSE_TARGETS, type LighthouseResult } from './lighthouse.ts';
import type { CostResult, LatencyResult } from './measure.ts';
import type { RouteResult } from './routes.ts';
import { relativeDifference, round } from './stats.ts';
import type { StreamLagResult } from './stream-lag.ts';
import type { CaseKind } from './types.ts';

export interface CaseResult {
  name: string;
  kind: CaseKind;
  module: string;
  floorDescription: string;
  maxRatio?: number;
  flat?: boolean;
  bySize: Array<{ size: number; latency: LatencyResult; cost: CostResult }>;
}

export interface BenchResults {
  /** when the run ended */
  date: string;
  /** how long the whole run took (absent in older results) */
  durationSeconds?: number;
  mode: 'smoke' | 'full';
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGiB: number;
    node: string;
    platform: string;
    load: number[];
  };
  settings: {
    users: number;
    sizes: number[];
    /** the password hashing scheme and its parameters */
    passwordHash: string;
    iterations: Record<CaseKind, { warmup: number; measured: number }>;
    costSamples: number;
    /** requests per route in the every-route sweep (absent in older results) */
    routeSamples?: number;
  };
  cases: CaseResult[];
  /** cases whose handler module is not in the repository yet */
  missingCases: string[];
  http: {
    size: number;
    connections: number;
    durationSeconds: number;
    results: HttpResult[];
    missing: string[];
  } | null;
  bundles: BundleResult[];
  /** fresh process: import + first call with its first DynamoDB call (absent in older results) */
  coldInit?: ColdInitResult[];
  /** every route of serverless.yml, with its calls and capacity (absent in older results) */
  routes?: RouteResult[];
  /** how many routes serverless.yml declares */
  declaredRoutes?: number;
  /** post -> searchable / matched / e-mailed through the local stack (absent in older results) */
  streamLag?: StreamLagResult | null;
  /** N clients posting, carting and checking out at once (absent in older results) */
  concurrentWrites?: ConcurrentResult[];
  /** the stream consumer's write units for one posted book (absent in older results) */
  consumerWrites?: ConsumerWrites | null;
  /** Lighthouse's phone profile on the home page, a book without and one with photos, and the Sell page (absent in older results) */
  lighthouse?: LighthouseResult | null;
  targets: TargetCheck[];
}

export interface TargetCheck {
  target: string;
  subject: string;
  value: string;
  limit: string;
  met: boolean;
}

export const LIMITS = {
  flatCapacity: 0.1,
  importMs: 150,
  coldInitMs: 100,
  /** a case's cold init over its SDK floor's (bench/harness/sdk-floor.ts) */
  coldInitOverSdkFloor: 1.15,
};

/** Every target of the issue, checked against the results. */
export function checkTargets(r: Omit<BenchResults, 'targets'>): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const sizes = r.settings.sizes;
  for (const c of r.cases) {
    // The floor is honest only if it does the endpoint's DynamoDB work: the same calls, and
    // capacity within 10 % (otherwise the latency ratio compares different work).
    for (const s of c.bySize) {
      const diff = relativeDifference(s.cost.capacityUnits, s.cost.floorCapacityUnits);
      checks.push({
        target: 'endpoint and floor do the same DynamoDB work',
        subject: `${c.name} at ${s.size} books`,
        value: `calls ${round(s.cost.calls)} vs ${round(s.cost.floorCalls)}, capacity ${round(s.cost.capacityUnits)} vs ${round(s.cost.floorCapacityUnits)}`,
        limit: 'same calls, capacity within 10 %',
        met: s.cost.calls === s.cost.floorCalls && diff <= LIMITS.flatCapacity,
      });
    }
    if (c.flat && sizes.length > 1) {
      const first = c.bySize[0];
      for (const s of c.bySize.slice(1)) {
        if (!first) break;
        const sameCalls = first.cost.calls === s.cost.calls;
        const diff = relativeDifference(first.cost.capacityUnits, s.cost.capacityUnits);
        checks.push({
          target: 'flat cost as the table grows',
          subject: `${c.name} ${first.size} -> ${s.size} books`,
          value: `calls ${round(first.cost.calls)} -> ${round(s.cost.calls)}, RCU ${round(first.cost.capacityUnits)} -> ${round(s.cost.capacityUnits)} (${round(diff * 100, 1)} %)`,
          limit: 'same calls, capacity within 10 %',
          met: sameCalls && diff <= LIMITS.flatCapacity,
        });
      }
    }
    if (c.maxRatio !== undefined) {
      for (const s of c.bySize) {
        checks.push({
          target: `p50 within ${c.maxRatio} x the DynamoDB floor`,
          subject: `${c.name} at ${s.size} books`,
          value: `${round(s.latency.ratio)} x (${round(s.latency.endpoint.p50)} ms vs ${round(s.latency.floor.p50)} ms)`,
          limit: `<= ${c.maxRatio}`,
          met: s.latency.ratio <= c.maxRatio,
        });
      }
    }
  }
  for (const b of r.bundles) {
    // HTTP functions: the cap, or an exemption's own cap (bench/harness/bundle-caps.ts); background
    // functions are not held to it
    const cap = bundleCapOf(b.function);
    if (cap !== null)
      checks.push({
        target: `bundle under ${BUNDLE_CAP_BYTES / 1024} KB minified (exemptions: their own cap)`,
        subject: b.function,
        value: `${round(b.bytes / 1024, 0)} KB`,
        limit: `<= ${cap / 1024} KB`,
        met: b.bytes <= cap,
      });
    checks.push({
      target: 'import in a fresh process under 150 ms',
      subject: b.function,
      value: `${round(b.importMs, 1)} ms`,
      limit: '< 150 ms',
      met: b.importMs < LIMITS.importMs,
    });
  }
  if (r.declaredRoutes !== undefined && (r.routes?.length ?? 0) > 0) {
    const measuredRoutes = new Set((r.routes ?? []).map((x) => x.route)).size;
    checks.push({
      target: 'every route of serverless.yml in the benchmark',
      subject: 'routes',
      value: `${measuredRoutes} of ${r.declaredRoutes}`,
      limit: 'all',
      met: measuredRoutes === r.declaredRoutes,
    });
  }
  for (const cw of r.concurrentWrites ?? []) {
    // Contention may refuse a write (409, or 503 with Retry-After once retries run out), never break it.
    const broken = Object.entries(cw.answers).filter(([kind]) => !['2xx', '409', '503'].includes(kind));
    checks.push({
      target: 'concurrent writes answer only 2xx, 409 or 503',
      subject: `${cw.clients} clients`,
      value: answersInOrder(cw.answers)
        .map(([kind, n]) => `${kind}: ${n}`)
        .join(', '),
      limit: 'no 500, no other status',
      met: broken.length === 0,
    });
  }
  for (const ci of r.coldInit ?? []) {
    checks.push({
      target: 'cold init (fresh process: import + first call) p50 at most 100 ms',
      subject: ci.case,
      value: `${round(ci.totalMs, 1)} ms (import ${round(ci.importMs, 1)}, of it config ${round(ci.configMs, 1)}; first call ${round(ci.firstCallMs, 1)})`,
      limit: '<= 100 ms',
      met: ci.totalMs <= LIMITS.coldInitMs,
    });
    if (ci.floorMs !== undefined) {
      checks.push({
        target: `cold init p50 at most ${LIMITS.coldInitOverSdkFloor} x its SDK floor (our code's share)`,
        subject: ci.case,
        value: `${round(ci.totalMs, 1)} ms over ${round(ci.floorMs, 1)} ms = ${round(ci.totalMs / ci.floorMs, 2)} x`,
        limit: `<= ${LIMITS.coldInitOverSdkFloor} x`,
        met: ci.totalMs <= LIMITS.coldInitOverSdkFloor * ci.floorMs,
      });
    }
  }
  for (const p of r.lighthouse?.pages ?? []) {
    const t = LIGHTHOUSE_TARGETS;
    checks.push({
      target: `Lighthouse (phone): performance >= ${t.performance}, accessibility ${t.accessibility}, best practices >= ${t.bestPractices}, LCP <= ${t.lcpMs} ms`,
      subject: p.name,
      value: `${p.performance} / ${p.accessibility} / ${p.bestPractices}, LCP ${p.lcpMs} ms`,
      limit: `>= ${t.performance} / ${t.accessibility} / >= ${t.bestPractices}, <= ${t.lcpMs} ms`,
      met:
        p.performance >= t.performance &&
        p.accessibility >= t.accessibility &&
        p.bestPractices >= t.bestPractices &&
        p.lcpMs <= t.lcpMs,
    });
  }
  return checks;
}

/** A case's endpoint p50 at the run's largest size (where cold init runs), or NaN. */
export function warmP50(r: BenchResults, caseName: string): number {
  const size = r.settings.sizes.at(-1);
  const row = r.cases.find((c) => c.name === caseName)?.bySize.find((b) => b.size === size);
  return row?.latency.endpoint.p50 ?? Number.NaN;
}

/** `x` rounded to `digits`, or '-' when it is not a finite number. */
export const fmt = (x: number, digits = 2) => (Number.isFinite(x) ? String(round(x, digits)) : '-');
const size = (n: number) => n.toLocaleString('en-US');

/**
 * The Markdown rows of a table with a row per case and table size: the endpoint, the number of
 * books, then the `cells` of that size's results.
 */
export function caseRows(
  cases: CaseResult[],
  cells: (s: CaseResult['bySize'][number], c: CaseResult) => string[],
): string[] {
  return cases.flatMap((c) =>
    c.bySize.map((s) => `| ${[c.name, size(s.size), ...cells(s, c)].join(' | ')} |`),
  );
}

/** The Markdown report; `explanations` maps a subject (or a target) to why it is missed. */
export function toMarkdown(r: BenchResults, explanations: Record<string, string> = {}): string {
  const lines: string[] = [];
  const push = (...l: string[]) => lines.push(...l);
  /** A section a run may leave out: its heading, then "Not run." without its results, else what `write` pushes. */
  const section = <T>(heading: string, results: T | null | undefined, write: (results: T) => void) => {
    push(heading, '');
    if (!results) push('Not run.', '');
    else write(results);
  };
  push(
    `# Benchmark results (${r.mode} run)`,
    '',
    `${r.date} on ${r.machine.cpus} x ${r.machine.cpuModel}, ${r.machine.memoryGiB} GiB, Node ${r.machine.node}, ${r.machine.platform}` +
      ` (load average at start ${r.machine.load.map((l) => l.toFixed(2)).join(' / ')}).`,
    `Table: DynamoDB Local (in memory) with ${r.settings.users} users and ${r.settings.sizes.map(size).join(', then ')} listed books; password hashes ${r.settings.passwordHash}.`,
    `Iterations (warm-up + measured): reads ${r.settings.iterations.read.warmup} + ${r.settings.iterations.read.measured}, ` +
      `writes ${r.settings.iterations.write.warmup} + ${r.settings.iterations.write.measured}, login ${r.settings.iterations.login.warmup} + ${r.settings.iterations.login.measured}; ` +
      `cost averaged over ${r.settings.costSamples} requests.`,
    '',
  );

  const missed = r.targets.filter((t) => !t.met);
  push('## Targets', '');
  if (r.targets.length === 0) push('No target could be checked in this run.', '');
  else if (missed.length === 0) push(`All ${r.targets.length} target checks are met.`, '');
  else {
    push(`**${missed.length} of ${r.targets.length} target checks are missed:**`, '');
    const byTarget = new Map<string, TargetCheck[]>();
    for (const t of missed) byTarget.set(t.target, [...(byTarget.get(t.target) ?? []), t]);
    for (const [target, checks] of byTarget) {
      const list = checks.map((t) => {
        const why = explanations[t.subject];
        return `${t.subject} ${t.value}${why ? ` (why: ${why})` : ''}`;
      });
      const why = explanations[target];
      push(
        `- **${target}** (limit ${checks[0]?.limit}): missed by ${checks.length}: ${list.join('; ')}.${why ? ` Why: ${why}` : ''}`,
      );
    }
    push('');
  }
  if (r.missingCases.length > 0) {
    push(
      `Not measured: ${r.missingCases.join(', ')} (their handlers are not in the repository at this commit).`,
      '',
    );
  }
  push(
    '| target | subject | value | limit | met |',
    '| --- | --- | --- | --- | --- |',
    ...r.targets.map(
      (t) => `| ${t.target} | ${t.subject} | ${t.value} | ${t.limit} | ${t.met ? 'yes' : '**no**'} |`,
    ),
    '',
  );

  push(
    '## 1. In-process latency against the DynamoDB floor',
    '',
    'Handlers invoked directly with API Gateway v2 events; the floor is the same DynamoDB calls issued raw',
    'with a plain DocumentClient, interleaved with the endpoint calls. Times in ms.',
    '',
    '| endpoint | books | p50 | p99 | floor p50 | floor p99 | p50 ratio | target |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...caseRows(r.cases, ({ latency: l }, c) => [
      fmt(l.endpoint.p50),
      fmt(l.endpoint.p99),
      fmt(l.floor.p50),
      fmt(l.floor.p99),
      fmt(l.ratio),
      c.kind === 'login'
        ? `password check ${fmt(l.hashing?.p50 ?? Number.NaN)} ms = ${fmt((l.hashing?.share ?? Number.NaN) * 100, 0)} % of p50`
        : c.maxRatio !== undefined
          ? `<= ${c.maxRatio}`
          : '(none)',
    ]),
  );
  push('', 'Floors:', '', ...r.cases.map((c) => `- ${c.name}: ${c.floorDescription}`), '');

  push(
    '## 2. DynamoDB cost per request, and 3. growth',
    '',
    'Calls and consumed capacity units (read + write, `ReturnConsumedCapacity: TOTAL`) per request.',
    '',
    '| endpoint | books | calls | capacity units | operations | floor calls | floor units |',
    '| --- | ---: | ---: | ---: | --- | ---: | ---: |',
    ...caseRows(r.cases, ({ cost: k }) => [
      fmt(k.calls),
      fmt(k.capacityUnits),
      k.operations.join(', '),
      fmt(k.floorCalls),
      fmt(k.floorCapacityUnits),
    ]),
    '',
  );

  section('## 4. Over HTTP (serverless offline, loopback)', r.http, (http) => {
    push(
      `${size(http.size)} books, ${http.connections} connections for ${http.durationSeconds} s per route (autocannon), after a warm-up of 20 requests per connection.`,
      '',
      '| route | requests | req/s | p50 ms | p99 ms |',
      '| --- | ---: | ---: | ---: | ---: |',
      ...http.results.map(
        (h) =>
          `| ${h.name} \`${h.path}\` | ${h.requests} | ${fmt(h.requestsPerSecond, 0)} | ${h.p50} | ${h.p99} |`,
      ),
      '',
    );
    if (http.missing.length > 0) push(`Not on this commit: ${http.missing.join(', ')}.`, '');
  });

  section('### Stream lag (serverless offline and its stream consumer)', r.streamLag, (lag) =>
    push(
      `${lag.posts} books posted over HTTP one at a time, each timed from sending the post until it is searchable, in the requester's matches and its match e-mail is in the SES emulator's store (polled every ${lag.pollMs} ms). Consumer: serverless-offline-dynamodb-streams on DynamoDB Local's stream, as \`npm start\` runs it.`,
      '',
      '| post -> | p50 ms | p99 ms | mean ms |',
      '| --- | ---: | ---: | ---: |',
      ...(
        [
          ['searchable', lag.searchable],
          ["in the requester's matches", lag.matched],
          ['match e-mail in the inbox', lag.emailed],
        ] as const
      ).map(([what, s]) => `| ${what} | ${fmt(s.p50, 0)} | ${fmt(s.p99, 0)} | ${fmt(s.mean, 0)} |`),
      '',
      `Throughput: a burst of ${lag.burst.posts} posts (5 at a time) wrote ${lag.burst.records} stream records (books, counters and the consumer's own writes, which it reads too) and the consumer was through them in ${fmt(lag.burst.seconds, 1)} s: ${fmt(lag.burst.recordsPerSecond, 0)} records per second.`,
      '',
    ),
  );

  push('### Concurrent writes (in-process handlers, DynamoDB Local)', '');
  const cws = r.concurrentWrites ?? [];
  if (cws.length === 0) push('Not run.', '');
  else {
    const seen = Object.fromEntries(cws.flatMap((c) => Object.keys(c.answers)).map((k) => [k, 1]));
    const kinds = answersInOrder({ '2xx': 1, '409': 1, '503': 1, '500': 1, ...seen }).map(([k]) => k);
    push(
      `N clients at once, each a fresh student of the bench campus doing ${cws[0]?.rounds} round(s) of: post a book (postBook), put one of the 5 newest books other clients posted in the cart (addToCart), check out (checkoutCart); clients race for the same books, so some carts and checkouts are refused (409). Handlers invoked in this process, as in section 1. DynamoDB Local runs one transaction at a time and never answers TransactionConflict or throttling (those paths: tests/integration/concurrency/faults.test.ts).`,
      '',
      `| clients | requests | seconds | req/s | p50 ms | p99 ms | post p50 / p99 | cart p50 / p99 | checkout p50 / p99 | ${kinds.join(' | ')} |`,
      `| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ${kinds.map(() => '---:').join(' | ')} |`,
      ...cws.map(
        (c) =>
          `| ${c.clients} | ${c.requests} | ${fmt(c.seconds, 1)} | ${fmt(c.requestsPerSecond, 0)} | ${fmt(c.latency.p50)} | ${fmt(c.latency.p99)} | ` +
          `${fmt(c.byOperation.post.p50)} / ${fmt(c.byOperation.post.p99)} | ${fmt(c.byOperation.cart.p50)} / ${fmt(c.byOperation.cart.p99)} | ` +
          `${fmt(c.byOperation.checkout.p50)} / ${fmt(c.byOperation.checkout.p99)} | ${kinds.map((k) => c.answers[k] ?? 0).join(' | ')} |`,
      ),
      '',
    );
  }

  section('### Stream consumer: write units per posted book', r.consumerWrites, (writes) =>
    push(
      `One listed book, ${writes.book}, at the bench campus (the reader's request matches it), each stream processor applied to its INSERT record with consumed capacity measured. It has ${writes.searchEntries} search entries (every campus's and its campus's, each carrying the book's list fields, about ${writes.searchEntryBytes} bytes, and its price order on gsi4).`,
      '',
      '| processor | write calls | write units |',
      '| --- | ---: | ---: |',
      ...writes.byProcessor.map((p) => `| ${p.name} | ${p.calls} | ${fmt(p.writeUnits, 1)} |`),
      `| **all** | | **${fmt(writes.writeUnits, 1)}** |`,
      '',
    ),
  );

  push(
    '## 5. Cold start',
    '',
    'Minified ESM bundle of each function (`serverless package --stage dev`) and the median time of',
    '`await import(bundle)` in a fresh Node process (STAGE=local, no network call at import).',
    '',
    '| function | bundle KB | import ms | whole process ms |',
    '| --- | ---: | ---: | ---: |',
    ...r.bundles.map(
      (b) => `| ${b.function} | ${fmt(b.bytes / 1024, 0)} | ${fmt(b.importMs, 1)} | ${fmt(b.processMs, 0)} |`,
    ),
    '',
  );
  const cold = r.coldInit ?? [];
  if (cold.length > 0) {
    const share = (part: number, total: number) => `${fmt((100 * part) / total, 0)} %`;
    const warm = (c: ColdInitResult) => warmP50(r, c.case);
    push(
      '### Cold init: a fresh process imports the bundle and answers the first request',
      '',
      "Median of fresh processes on the deployed configuration path against DynamoDB Local (the first call builds the client and opens the first connection), timed once DynamoDB Local has gone quiet after the heavy phases (under a tenth of a core; bench/harness/quiet.ts): a stage that is not emulated, so at import each function reads the secrets serverless.yml gives it, one GetSecretValue each, in parallel, from a local stand-in for Secrets Manager (the code path and round trips of AWS, not its network latency). `config` is `lib/config.ts` bundled alone and imported in a fresh process with the function's environment. Shares of the total: import without config, config, first call. `warm p50`: the same request in a warm process at the same size (section 1), the work a first call does anyway; `over warm`: cold init minus it, what being cold adds. `SDK floor`: a fresh process of bench/harness/sdk-floor-handler.ts (bundled and minified as the functions are) after each of the case's: the same SDK client with the same settings, Powertools Logger (with its middleware) and Metrics, the same secrets and the case's first DynamoDB calls (how many, where the run recorded it), none of the service's code; `x floor`: the case over it, our code's share.",
      '',
      '| case | function | cold init ms | import ms | config ms | first call ms | shares (import / config / first call) | warm p50 ms | over warm ms | SDK floor ms | x floor |',
      '| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |',
      ...cold.map(
        (c) =>
          `| ${c.case} | ${c.function} | ${fmt(c.totalMs, 1)} | ${fmt(c.importMs, 1)} | ${fmt(c.configMs, 1)} | ${fmt(c.firstCallMs, 1)} | ` +
          `${share(Math.max(0, c.importMs - c.configMs), c.totalMs)} / ${share(c.configMs, c.totalMs)} / ${share(c.firstCallMs, c.totalMs)} | ` +
          `${fmt(warm(c), 1)} | ${fmt(c.totalMs - warm(c), 1)} | ${fmt(c.floorMs ?? Number.NaN, 1)}${c.floorCalls === undefined ? '' : ` (${c.floorCalls} calls)`} | ${fmt(c.floorMs ? c.totalMs / c.floorMs : Number.NaN)} |`,
      ),
      '',
    );
  }
  const routes = r.routes ?? [];
  if (routes.length > 0) {
    push(
      '## 6. Every route: DynamoDB calls and capacity per request',
      '',
      `All ${routes.length} routes serverless.yml declares (${r.declaredRoutes ?? '?'}). \`case\`: a latency case with its floor (sections 1-2; calls and capacity at ${size(r.settings.sizes.at(-1) ?? 0)} books); \`call\`: ${r.settings.routeSamples ?? 1} request(s) each with fresh data where the call consumes it (set-up untimed), no floor; their time is in-process, a few warm calls. "(refused)": a call DynamoDB refused (a failed condition), still a round trip.`,
      '',
      '| route | function | by | status | calls | capacity units | operations | p50 ms |',
      '| --- | --- | --- | ---: | ---: | ---: | --- | ---: |',
      ...routes.map(
        (x) =>
          `| \`${x.route}\` | ${x.function} | ${x.by === 'case' ? `case ${x.case}` : 'call'} | ${x.status} | ${fmt(x.calls)} | ${fmt(x.capacityUnits)} | ${x.operations.join(', ') || '-'} | ${fmt(x.p50Ms)} |`,
      ),
      '',
    );
  }
  section('## 7. The web app under Lighthouse (phone profile)', r.lighthouse, (lh) =>
    push(
      `Lighthouse ${lh.lighthouseVersion} on ${lh.chromium} (headless), form factor ${lh.formFactor}, its default simulated mobile throttling (slow 4G, 4x CPU slowdown). The production build served as a deployed stage serves it (scripts/local/web.ts: compressed, hashed assets cached, the deployment's headers, /api on the same origin) over this run's serverless offline and table. After a warm-up visit (not counted: the server compresses each file at its first request, as a CDN would have done before), the run with the median performance score of several per page; the sell page signed in from its refresh cookie.`,
      '',
      '| page | path | performance | accessibility | best practices | LCP ms | FCP ms | TBT ms | CLS | JS KB | failed audits |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      ...lh.pages.map(
        (p) =>
          `| ${p.name} | \`${p.path.replace(/\/books\/.+$/, '/books/<id>')}\` | ${p.performance} | ${p.accessibility} | ${p.bestPractices} | ${p.lcpMs} | ${p.fcpMs} | ${p.tbtMs} | ${p.cls} | ${p.scriptKb} | ${p.failedAudits.join(', ') || '-'} |`,
      ),
      '',
    ),
  );
  return lines.join('\n');
}
