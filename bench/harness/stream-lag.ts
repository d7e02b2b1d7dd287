/**
 * Stream lag, end to end on the local stack: a book posted over HTTP through serverless offline
 * (stage `local`), whose stream consumer is the one `npm start` runs (serverless-offline-dynamodb-
 * streams polling DynamoDB Local's stream and invoking functions/streams/consumer), until it is
 *  - searchable: the search of its unique title word returns it (lib/books/listings.ts searchBooks,
 *    the code of the search routes, called in this process so the poll adds no HTTP hop);
 *  - in the requester's matches (lib/matching/user-matches.ts getUserMatches, likewise);
 *  - e-mailed: the match e-mail to the requester is in the SES emulator's store (GET /store).
 * Posts go one at a time (each waits for all three), so a lag is one post's, not a queue's.
 * Then a burst of posts measures the consumer's throughput: stream records written from the first
 * post until the last book's match e-mail arrived, per second (the consumer reads its own writes'
 * records too, as on AWS).
 */
import { type Summary, summarise } from './stats.ts';

export interface StreamLagResult {
  posts: number;
  /** ms from sending the post to each effect */
  searchable: Summary;
  matched: Summary;
  emailed: Summary;
  burst: { posts: number; records: number; seconds: number; recordsPerSecond: number };
  pollMs: number;
}

export interface StreamLagSetup {
  /** serverless offline's base URL */
  url: string;
  sesUrl: string;
  /** who posts (bearer tokens) */
  posterTokens: string[];
  requester: { id: string; email: string };
  /** the course the requester asked for: every post is of it */
  course: string;
  runId: string;
}

const POLL_MS = 10;
const TIMEOUT_MS = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A unique, letters-only title word per post (search indexes words; digits would read as a course). */
export function uniqueWord(runId: string, i: number): string {
  let n = i;
  let s = '';
  do {
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26);
  } while (n > 0);
  // the index letters twice, at both ends: two posts' words differ in at least two letters, so
  // search's one-typo tolerance (lib/books/typo.ts) never finds one post's word in another's
  return `lag${s}${runId.replace(/[^a-z]/g, '')}${s}`;
}

async function post(setup: StreamLagSetup, i: number): Promise<{ id: string; name: string; word: string }> {
  const word = uniqueWord(setup.runId, i);
  const name = `Lagbook ${word}`;
  const res = await fetch(`${setup.url}/api/books/postBook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${setup.posterTokens[i % setup.posterTokens.length]}`,
    },
    body: JSON.stringify({ name, edition: 1, course: setup.course, price: 12.5, condition: 'Good' }),
  });
  const text = await res.text();
  if (res.status !== 201)
    throw new Error(`stream lag: postBook answered ${res.status}: ${text.slice(0, 300)}`);
  const json = JSON.parse(text) as { data?: { id?: string }; id?: string };
  const id = json.data?.id ?? json.id;
  if (!id) throw new Error(`stream lag: postBook answered no id: ${text.slice(0, 300)}`);
  return { id, name, word };
}

interface Watch {
  searchable: (word: string, id: string) => Promise<boolean>;
  matched: () => Promise<Set<string>>;
  emailed: () => Promise<Set<string>>;
}

async function watchers(setup: StreamLagSetup): Promise<Watch> {
  const { searchBooks } = await import('#lib/books/listings.ts');
  const { getUserMatches } = await import('#lib/matching/user-matches.ts');
  return {
    searchable: async (word, id) =>
      (await searchBooks(word, null, { limit: 5 })).items.some((b) => b.id === id),
    matched: async () => new Set((await getUserMatches(setup.requester.id)).map((b) => b.id)),
    emailed: async () => {
      const res = await fetch(`${setup.sesUrl}/store`);
      const store = (await res.json()) as {
        emails: Array<{ destination: { to: string[] }; subject: string }>;
      };
      return new Set(
        store.emails.filter((m) => m.destination.to.includes(setup.requester.email)).map((m) => m.subject),
      );
    },
  };
}

const subjectOf = (name: string) => `Match for your book request: ${name}`;

/** Sequential posts, each timed to its three effects. */
async function lagOf(setup: StreamLagSetup, watch: Watch, i: number) {
  const t0 = performance.now();
  const book = await post(setup, i);
  const times: { searchable?: number; matched?: number; emailed?: number } = {};
  while (times.searchable === undefined || times.matched === undefined || times.emailed === undefined) {
    if (performance.now() - t0 > TIMEOUT_MS)
      throw new Error(
        `stream lag: post ${book.id} not through the stream after ${TIMEOUT_MS} ms (${JSON.stringify(times)})`,
      );
    const [s, m, e] = await Promise.all([
      times.searchable === undefined ? watch.searchable(book.word, book.id) : true,
      times.matched === undefined ? watch.matched().then((x) => x.has(book.id)) : true,
      times.emailed === undefined ? watch.emailed().then((x) => x.has(subjectOf(book.name))) : true,
    ]);
    const now = performance.now() - t0;
    if (s && times.searchable === undefined) times.searchable = now;
    if (m && times.matched === undefined) times.matched = now;
    if (e && times.emailed === undefined) times.emailed = now;
    if (!(s && m && e)) await sleep(POLL_MS);
  }
  return times as Required<typeof times>;
}

export async function measureStreamLag(
  setup: StreamLagSetup,
  options: { posts: number; burst: number },
  log: (m: string) => void,
): Promise<StreamLagResult> {
  const watch = await watchers(setup);
  const searchable: number[] = [];
  const matched: number[] = [];
  const emailed: number[] = [];
  for (let i = 0; i < options.posts; i++) {
    const t = await lagOf(setup, watch, i);
    searchable.push(t.searchable);
    matched.push(t.matched);
    emailed.push(t.emailed);
  }
  log(
    `  lag over ${options.posts} posts: searchable p50 ${summarise(searchable).p50.toFixed(0)} ms, matched ${summarise(matched).p50.toFixed(0)} ms, e-mailed ${summarise(emailed).p50.toFixed(0)} ms`,
  );

  // Throughput: a burst of posts (5 at a time), until the last one's match e-mail is in.
  const { StreamReader } = await import('#tests/helpers/stream.ts');
  const reader = new StreamReader();
  await reader.skipToEnd();
  const t0 = performance.now();
  const names: string[] = [];
  let next = options.posts;
  const end = options.posts + options.burst;
  await Promise.all(
    Array.from({ length: 5 }, async () => {
      while (next < end) {
        const book = await post(setup, next++);
        names.push(book.name);
      }
    }),
  );
  for (;;) {
    const inbox = await watch.emailed();
    if (names.every((n) => inbox.has(subjectOf(n)))) break;
    if (performance.now() - t0 > TIMEOUT_MS * 2) throw new Error('stream lag: the burst did not drain');
    await sleep(POLL_MS * 5);
  }
  const seconds = (performance.now() - t0) / 1000;
  const records = (await reader.next()).length;
  const burst = { posts: options.burst, records, seconds, recordsPerSecond: records / seconds };
  log(
    `  burst of ${options.burst} posts: ${records} stream records in ${seconds.toFixed(1)} s (${burst.recordsPerSecond.toFixed(0)}/s)`,
  );
  return {
    posts: options.posts,
    searchable: summarise(searchable),
    matched: summarise(matched),
    emailed: summarise(emailed),
    burst,
    pollMs: POLL_MS,
  };
}
