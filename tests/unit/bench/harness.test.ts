import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { functionOfModule } from '#bench/harness/coldinit.ts';
import { unzip } from '#bench/harness/coldstart.ts';
import { answerKind, type ConcurrentResult } from '#bench/harness/concurrent.ts';
import { CATALOGUE, isbn13, makeBooks, olderSpan, prng, SEEDED_PER_DAY } from '#bench/harness/data.ts';
import { type BenchResults, checkTargets, toMarkdown, warmP50 } from '#bench/harness/report.ts';
import { WaveRecorder } from '#bench/harness/sdk-floor.ts';
import { percentile, relativeDifference, summarise } from '#bench/harness/stats.ts';

/** A zip with one deflated entry, built by hand (local header, data, central directory, end record). */
function zipOf(name: string, content: Buffer): Buffer {
  const data = deflateRawSync(content);
  const nameBuf = Buffer.from(name);
  /**
   * A header of `size` bytes: its signature, then from `at` on the fields the local header and the
   * central directory entry share (method 8 = deflate, compressed size, size, name length).
   */
  const header = (size: number, signature: number, at: number) => {
    const h = Buffer.alloc(size);
    h.writeUInt32LE(signature, 0);
    h.writeUInt16LE(8, at);
    h.writeUInt32LE(data.length, at + 10);
    h.writeUInt32LE(content.length, at + 14);
    h.writeUInt16LE(nameBuf.length, at + 18);
    return h;
  };
  const local = header(30, 0x04034b50, 8);
  const central = header(46, 0x02014b50, 10); // the local header's offset (at 42) stays 0
  const cdOffset = local.length + nameBuf.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBuf.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, nameBuf, data, central, nameBuf, end]);
}

type Partial = Omit<BenchResults, 'targets'>;

function resultsWith(overrides: Partial['cases'], bundles: Partial['bundles'] = []): Partial {
  return {
    date: '2026-01-01T00:00:00.000Z',
    mode: 'full',
    machine: { cpus: 2, cpuModel: 'x', memoryGiB: 1, node: '24', platform: 'linux', load: [0, 0, 0] },
    settings: {
      users: 1,
      sizes: [1000, 10000],
      passwordHash: 'Argon2id, 19456 KiB, 2 passes',
      iterations: {
        read: { warmup: 0, measured: 1 },
        write: { warmup: 0, measured: 1 },
        login: { warmup: 0, measured: 1 },
      },
      costSamples: 1,
    },
    cases: overrides,
    missingCases: [],
    http: null,
    bundles,
  };
}

const sizeResult = (
  size: number,
  calls: number,
  cu: number,
  p50: number,
  floorP50: number,
  floor: { calls?: number; cu?: number } = {},
) => ({
  size,
  latency: {
    endpoint: { n: 1, p50, p99: p50, mean: p50 },
    floor: { n: 1, p50: floorP50, p99: floorP50, mean: floorP50 },
    ratio: p50 / floorP50,
  },
  cost: {
    calls,
    capacityUnits: cu,
    operations: [],
    floorCalls: floor.calls ?? calls,
    floorCapacityUnits: floor.cu ?? cu,
    floorOperations: [],
  },
});

/** A cold-init result of `name` (its function named alike): 3 runs, 10 ms of it configuration. */
const coldRun = (name: string, importMs: number, firstCallMs: number, floorMs?: number) => ({
  case: name,
  function: name,
  runs: 3,
  importMs,
  configMs: 10,
  firstCallMs,
  totalMs: importMs + firstCallMs,
  ...(floorMs === undefined ? {} : { floorMs }),
  status: 200,
});

describe('benchmark statistics', () => {
  it('takes nearest-rank percentiles of unsorted samples', () => {
    const samples = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(samples, 50)).toBe(5);
    expect(percentile(samples, 99)).toBe(10);
    expect(percentile(samples, 10)).toBe(1);
    expect(summarise(samples)).toMatchObject({ n: 10, p50: 5, p99: 10, mean: 5.5 });
  });

  it('has no percentile of nothing', () => {
    expect(percentile([], 50)).toBeNaN();
  });

  it('measures the relative difference against the larger value', () => {
    expect(relativeDifference(10, 11)).toBeCloseTo(1 / 11);
    expect(relativeDifference(0, 0)).toBe(0);
  });
});

describe('benchmark data', () => {
  it('makes ISBN-13s with a valid check digit', () => {
    const random = prng(7);
    for (let k = 0; k < 50; k++) {
      const isbn = isbn13(random);
      const sum = [...isbn].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
      expect(isbn).toMatch(/^978\d{10}$/);
      expect(sum % 10).toBe(0);
    }
  });

  it('dates each top-up before every book seeded earlier, so the newest pages stay the same', () => {
    const owners = [{ id: 'u1', firstName: 'A' }];
    const now = Date.parse('2026-11-24T12:00:00.000Z');
    const dates = (books: { date: string }[]) => books.map((b) => Date.parse(b.date));
    const first = makeBooks(1_000, owners, prng(5), 0, olderSpan(1_000, undefined, now));
    expect(Math.max(...dates(first))).toBeLessThan(now);
    expect(Math.min(...dates(first))).toBeGreaterThanOrEqual(now - (1_000 / SEEDED_PER_DAY) * 86_400_000 - 1);
    const oldest = Math.min(...dates(first));
    const topUp = makeBooks(9_000, owners, prng(6), 1_000, olderSpan(9_000, oldest, now));
    expect(Math.max(...dates(topUp))).toBeLessThan(oldest);
    // 10,000 books over the last 50 days, as before the top-ups were dated older
    expect(Math.min(...dates(topUp))).toBeGreaterThanOrEqual(now - 50 * 86_400_000 - 2);
    // the 40 newest of all are the first seed's 40 newest
    const newest = (books: { id: string; date: string }[]) =>
      [...books]
        .sort((a, b) => b.date.localeCompare(a.date))
        .slice(0, 40)
        .map((b) => b.id);
    expect(newest([...first, ...topUp])).toEqual(newest(first));
  }, 60_000); // builds 11,000 records: seconds on a loaded machine

  it('makes the same books from the same seed, owned round-robin, from the catalogue', () => {
    const owners = [
      { id: 'u1', firstName: 'A' },
      { id: 'u2', firstName: 'B' },
    ];
    const a = makeBooks(20, owners, prng(3));
    const b = makeBooks(20, owners, prng(3));
    expect(a.map((x) => [x.name, x.priceCents, x.ISBN])).toEqual(
      b.map((x) => [x.name, x.priceCents, x.ISBN]),
    );
    expect(a.map((x) => x.ownerId).slice(0, 4)).toEqual(['u1', 'u2', 'u1', 'u2']);
    const names = new Set(CATALOGUE.map((c) => c.name));
    for (const book of a) {
      expect(names.has(book.name)).toBe(true);
      expect(book.status).toBe(0);
    }
  });
});

describe('reading bundles out of a zip', () => {
  it('inflates every entry by name', () => {
    const content = Buffer.from('export const handler = () => 1;\n'.repeat(50));
    const files = unzip(zipOf('functions/books/list.mjs', content));
    expect(files.get('functions/books/list.mjs')?.toString()).toBe(content.toString());
  });

  it('refuses what is not a zip', () => {
    expect(() => unzip(Buffer.from('not a zip at all, just some text here'))).toThrow(/not a zip/);
  });
});

describe('benchmark targets', () => {
  it('passes flat cost with the same calls and capacity within 10 %', () => {
    const checks = checkTargets(
      resultsWith([
        {
          name: 'search',
          kind: 'read',
          module: 'm',
          floorDescription: '',
          flat: true,
          bySize: [sizeResult(1000, 2, 10, 5, 5), sizeResult(10000, 2, 10.9, 5, 5)],
        },
      ]),
    );
    expect(checks.find((c) => c.target.startsWith('flat'))?.met).toBe(true);
  });

  it('misses flat cost when calls grow or capacity grows by more than 10 %', () => {
    const [callsGrow, capacityGrows] = [
      [sizeResult(1000, 2, 10, 5, 5), sizeResult(10000, 3, 10, 5, 5)],
      [sizeResult(1000, 2, 10, 5, 5), sizeResult(10000, 2, 11.5, 5, 5)],
    ].map((bySize) =>
      checkTargets(
        resultsWith([{ name: 'x', kind: 'read', module: 'm', floorDescription: '', flat: true, bySize }]),
      ).find((c) => c.target.startsWith('flat')),
    );
    expect(callsGrow?.met).toBe(false);
    expect(capacityGrows?.met).toBe(false);
  });

  it('checks the latency ratio at every size and the bundle limits', () => {
    const checks = checkTargets(
      resultsWith(
        [
          {
            name: 'getAllBooks',
            kind: 'read',
            module: 'm',
            floorDescription: '',
            maxRatio: 1.2,
            bySize: [sizeResult(1000, 2, 1, 6, 5), sizeResult(10000, 2, 1, 6.5, 5)],
          },
        ],
        [{ function: 'f', file: 'f.mjs', bytes: 700 * 1024, importMs: 90, processMs: 120, runs: 3 }],
      ),
    );
    expect(checks.filter((c) => c.target.startsWith('p50')).map((c) => c.met)).toEqual([true, false]);
    expect(checks.find((c) => c.target.startsWith('bundle'))?.met).toBe(false);
    expect(checks.find((c) => c.target.startsWith('import'))?.met).toBe(true);
  });

  it('holds an exempt function to its own cap and a background function to none (bench/harness/bundle-caps.ts)', () => {
    const bundle = (fn: string, kb: number) => ({
      function: fn,
      file: `${fn}.mjs`,
      bytes: kb * 1024,
      importMs: 90,
      processMs: 120,
      runs: 3,
    });
    const checks = checkTargets(
      resultsWith(
        [],
        [bundle('booksAddPhoto', 450), bundle('booksGetBook', 351), bundle('streamsConsumer', 700)],
      ),
    ).filter((c) => c.target.startsWith('bundle'));
    expect(checks.map((c) => [c.subject, c.met])).toEqual([
      ['booksAddPhoto', true],
      ['booksGetBook', false],
    ]);
  });

  it('fails a row whose endpoint and floor disagree on calls or on capacity, and passes one that agrees', () => {
    const rows = [
      sizeResult(1000, 2, 1, 5, 5),
      sizeResult(2000, 2, 1, 5, 5, { calls: 1 }),
      sizeResult(3000, 2, 1, 5, 5, { cu: 0.5 }),
      sizeResult(4000, 2, 1, 5, 5, { cu: 1.05 }),
    ];
    const checks = checkTargets(
      resultsWith([{ name: 'getBook', kind: 'read', module: 'm', floorDescription: '', bySize: rows }]),
    ).filter((c) => c.target === 'endpoint and floor do the same DynamoDB work');
    expect(checks.map((c) => [c.subject, c.met])).toEqual([
      ['getBook at 1000 books', true],
      ['getBook at 2000 books', false],
      ['getBook at 3000 books', false],
      ['getBook at 4000 books', true],
    ]);
    expect(checks[1]?.value).toBe('calls 2 vs 1, capacity 1 vs 1');
  });

  it('holds each cold init (import + first call in a fresh process) to 100 ms', () => {
    const checks = checkTargets({
      ...resultsWith([]),
      coldInit: [coldRun('getBook', 60, 40), coldRun('login', 70, 35)],
    }).filter((c) => c.target.startsWith('cold init'));
    expect(checks.map((c) => [c.subject, c.met])).toEqual([
      ['getBook', true],
      ['login', false],
    ]);
    expect(checks[1]?.value).toBe('105 ms (import 70, of it config 10; first call 35)');
  });

  it("holds each cold init to 1.15 x its SDK floor's, measured in the same run", () => {
    const cold = (name: string, totalMs: number, floorMs: number) =>
      coldRun(name, totalMs / 2, totalMs / 2, floorMs);
    const checks = checkTargets({
      ...resultsWith([]),
      coldInit: [cold('getBook', 80, 70), cold('login', 92, 80), cold('search', 93, 80)],
    }).filter((c) => c.target.includes('SDK floor'));
    expect(checks.map((c) => [c.subject, c.met])).toEqual([
      ['getBook', true],
      ['login', true],
      ['search', false],
    ]);
    expect(checks[2]?.value).toBe('93 ms over 80 ms = 1.16 x');
    expect(checks[2]?.limit).toBe('<= 1.15 x');
  });

  it("sets each cold init beside the same request's warm p50 at the largest size, and what being cold adds", () => {
    const results = {
      ...resultsWith([
        {
          name: 'login',
          kind: 'login',
          module: 'm',
          floorDescription: '',
          bySize: [sizeResult(1000, 5, 5, 80, 10), sizeResult(10000, 5, 5, 90, 10)],
        },
      ]),
      coldInit: [
        {
          case: 'login',
          function: 'authLogin',
          runs: 3,
          importMs: 40,
          configMs: 30,
          firstCallMs: 110,
          totalMs: 150,
          floorMs: 120,
          status: 200,
        },
      ],
      targets: [],
    } as BenchResults;
    expect(warmP50(results, 'login')).toBe(90);
    expect(Number.isNaN(warmP50(results, 'getBook'))).toBe(true);
    const row = toMarkdown(results)
      .split('\n')
      .find((l) => l.startsWith('| login | authLogin |'));
    expect(
      row
        ?.split('|')
        .slice(-5, -1)
        .map((c) => c.trim()),
    ).toEqual(['90', '60', '120', '1.25']);
  });

  it('misses "every route" when fewer routes were measured than serverless.yml declares', () => {
    const route = (r: string) => ({
      route: r,
      function: 'f',
      by: 'call' as const,
      samples: 1,
      status: 200,
      calls: 1,
      capacityUnits: 1,
      operations: ['GetItem'],
      p50Ms: 1,
    });
    const check = (declared: number) =>
      checkTargets({
        ...resultsWith([]),
        routes: [route('GET /a'), route('GET /b')],
        declaredRoutes: declared,
      }).find((c) => c.target === 'every route of serverless.yml in the benchmark');
    expect(check(2)).toMatchObject({ value: '2 of 2', met: true });
    expect(check(3)).toMatchObject({ value: '2 of 3', met: false });
  });

  it('misses the concurrent writes target for a 500 or a thrown handler, not for 409 or 503', () => {
    const summary = { n: 3, p50: 1, p99: 2, mean: 1 };
    const run = (clients: number, answers: Record<string, number>): ConcurrentResult => ({
      clients,
      rounds: 1,
      requests: 3,
      seconds: 1,
      requestsPerSecond: 3,
      latency: summary,
      byOperation: { post: summary, cart: summary, checkout: summary },
      answers,
    });
    const checks = checkTargets({
      ...resultsWith([]),
      concurrentWrites: [
        run(10, { '2xx': 20, '409': 5, '503': 2 }),
        run(50, { '2xx': 90, '500': 1, threw: 1 }),
      ],
    }).filter((c) => c.target.startsWith('concurrent writes'));
    expect(checks.map((c) => [c.subject, c.met])).toEqual([
      ['10 clients', true],
      ['50 clients', false],
    ]);
    expect(checks[1]?.value).toBe('2xx: 90, 500: 1, threw: 1');
    expect([200, 201, 409, 503, 500, 'threw' as const].map(answerKind)).toEqual([
      '2xx',
      '2xx',
      '409',
      '503',
      '500',
      'threw',
    ]);
  });
});

describe('cold init', () => {
  it("finds a handler module's function name in functions/<area>/functions.yml", () => {
    expect(functionOfModule('functions/books/get-books-no-token.ts')).toBe('booksGetBooksNoToken');
    expect(functionOfModule('functions/auth/login.ts')).toBe('authLogin');
    expect(functionOfModule('functions/books/nothing.ts')).toBeUndefined();
  });
});

describe('SDK floor recording', () => {
  it('puts calls sent before any answer in one wave, and a call after an answer in the next', async () => {
    const recorder = new WaveRecorder();
    const call = (n: number) => ({ operation: 'Query', input: { n } });
    recorder.record(call(1));
    await Promise.resolve(); // a microtask later: still before any I/O could answer
    recorder.record(call(2));
    await new Promise((r) => setImmediate(r)); // the event loop turned: an answer could have come
    recorder.record(call(3));
    expect(recorder.waves.map((w) => w.map((c) => c.input.n))).toEqual([[1, 2], [3]]);
  });
});
