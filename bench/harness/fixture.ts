/**
 * Seeds the benchmark table through the project's own code: users and books with the bulk writers
 * of lib/db/seed.ts (the repositories' stored items, BatchWrite), then the stream consumer's
 * processors (functions/streams/processors.ts: search index, matching index, matches) run directly on
 * synthesized INSERT changes of the seeded items, exactly as the consumer would apply them.
 *
 * Every import of project code is dynamic: configuration is read from the environment at import,
 * and the harness sets that environment first (bench/harness/env.ts).
 */
import type { BookRecord, UserRecord } from '#lib/db/records.ts';
import type { StreamChange } from '#lib/streams/types.ts';
import { BENCH_PASSWORD, makeBooks, makeUsers, olderSpan, prng } from './data.ts';

export interface SeedUser {
  id: string;
  email: string;
  firstName: string;
  /** a valid bearer token (renewed by `renewTokens`: a full run outlasts a token's hour) */
  token: string;
  role: number;
  tokenVersion: number;
}

/**
 * Signs every seeded user's token again, in place (every case reads `token` when it builds a
 * request): a full run takes longer than JWT_TTL_SECONDS, and the 10,000-book size's cases got 401
 * with tokens signed at the start.
 */
export async function renewTokens(fixture: Fixture): Promise<void> {
  const { signToken } = await import('#lib/accounts/jwt.ts');
  for (const u of fixture.users)
    u.token = (await signToken({ sub: u.id, role: u.role, tv: u.tokenVersion })).token;
}

export interface Fixture {
  users: SeedUser[];
  /** the caller of the authenticated reads (owns books, has requests) */
  reader: SeedUser;
  password: string;
  passwordHash: string;
  /** every book seeded by seedBooksTo (listed when seeded), in seeding order */
  books: BookRecord[];
  /** the search query of the search cases */
  searchQuery: string;
  /** records the harness made beyond the seed (e.g. by postBook); the next top-up counts them */
  listedCount: number;
}

const log = (msg: string) => console.log(`[bench] ${msg}`);

/**
 * The typo vocabulary's words already written by this process's seeding, by variant: a later batch
 * writes only what is new (the vocabulary is a union of word sets, so this is what the consumer
 * leaves too; it only writes every book's variants again, an ADD of words the set has).
 */
const seededVocabulary = new Map<string, Set<string>>();

/**
 * Runs every registered stream processor that wants them on INSERT changes of `items`, as the
 * consumer would, with one difference in how, not what: the search index's typo vocabulary is
 * written once per deletion variant for the whole batch instead of once per book and variant (the
 * consumer's way costs about 100 UpdateItems a book, which held seeding to a few books a second).
 * The index entries and every other processor are applied per item, by the processors' own code.
 */
export async function applyProcessors(items: Record<string, unknown>[], parallel = 8): Promise<number> {
  const { processors } = await import('#functions/streams/processors.ts');
  const { searchEntriesOf, searchIndexProcessor, typoAdditions } = await import('#lib/books/search-index.ts');
  const { writeEntryChanges } = await import('#lib/db/books.ts');
  const { addTypoWords } = await import('#lib/db/typo-vocabulary.ts');
  if (processors.length === 0) return 0;
  const vocabulary = new Map<string, string[]>();
  let next = 0;
  let applied = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as Record<string, unknown>;
      const change: StreamChange = {
        eventName: 'INSERT',
        eventId: `seed-${String(item.pk)}-${String(item.sk)}`,
        sequenceNumber: '0',
        keys: { pk: item.pk, sk: item.sk },
        oldImage: undefined,
        newImage: item,
      };
      for (const p of processors) {
        if (!p.wants(change)) continue;
        if (p === searchIndexProcessor) {
          await writeEntryChanges(searchEntriesOf(undefined), searchEntriesOf(item));
          for (const [variant, words] of typoAdditions(undefined, item)) {
            const known = seededVocabulary.get(variant);
            const fresh = words.filter((w) => !known?.has(w));
            if (fresh.length > 0) vocabulary.set(variant, [...(vocabulary.get(variant) ?? []), ...fresh]);
          }
        } else await p.apply(change);
        applied++;
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  const batch = new Map([...vocabulary].map(([v, words]) => [v, [...new Set(words)]]));
  if (batch.size > 0) await addTypoWords(batch);
  for (const [v, words] of batch)
    seededVocabulary.set(v, new Set([...(seededVocabulary.get(v) ?? []), ...words]));
  return applied;
}

export interface SeedOptions {
  users: number;
  /** a hook to seed what a case needs before the books arrive (e.g. the reader's requests) */
  beforeBooks?: (fixture: Fixture) => Promise<void>;
}

/** Creates the users (and the reader's token); no books yet. */
export async function seedUsers(options: SeedOptions): Promise<Fixture> {
  const { hashPassword } = await import('#lib/accounts/passwords.ts');
  const { putUsersBatch } = await import('#lib/db/seed.ts');
  const { signToken } = await import('#lib/accounts/jwt.ts');
  const random = prng(42);
  // as the product stores it: Argon2id with the configured parameters (the deployed defaults)
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const records: UserRecord[] = makeUsers(options.users, passwordHash, random);
  await putUsersBatch(records);
  const users: SeedUser[] = await Promise.all(
    records.map(async (u) => ({
      id: u.id,
      email: u.emailAddress,
      firstName: u.firstName,
      token: (await signToken({ sub: u.id, role: u.permissionType, tv: u.tokenVersion })).token,
      role: u.permissionType,
      tokenVersion: u.tokenVersion,
    })),
  );
  const reader = users[0] as SeedUser;
  const fixture: Fixture = {
    users,
    reader,
    password: BENCH_PASSWORD,
    passwordHash,
    books: [],
    searchQuery: 'calculus',
    listedCount: 0,
  };
  log(`seeded ${users.length} users`);
  await options.beforeBooks?.(fixture);
  return fixture;
}

/**
 * Adds listed books until the table holds `target` of them, each batch older than every book seeded
 * before it (olderSpan), then runs the stream processors.
 */
export async function seedBooksTo(fixture: Fixture, target: number, progress = true): Promise<void> {
  const { putBooksBatch, addToCounters, bookItem } = await import('#lib/db/seed.ts');
  const missing = target - fixture.listedCount;
  if (missing <= 0) return;
  const random = prng(1000 + fixture.books.length);
  const owners = fixture.users.map((u) => ({ id: u.id, firstName: u.firstName }));
  const batch = 2_000;
  const started = Date.now();
  for (let done = 0; done < missing; done += batch) {
    const n = Math.min(batch, missing - done);
    const oldest = fixture.books.reduce<number | undefined>((o, b) => {
      const t = Date.parse(b.date);
      return o === undefined || t < o ? t : o;
    }, undefined);
    const books = makeBooks(n, owners, random, fixture.books.length, olderSpan(n, oldest, Date.now()));
    await putBooksBatch(books);
    await applyProcessors(books.map(bookItem));
    fixture.books.push(...books);
    fixture.listedCount += n;
    const perOwner = new Map<string, number>();
    for (const b of books) perOwner.set(b.ownerId, (perOwner.get(b.ownerId) ?? 0) + 1);
    await addToCounters({ totalBooks: n, books_s0: n }, perOwner);
    if (progress) {
      const secs = ((Date.now() - started) / 1000).toFixed(0);
      log(`  books: ${fixture.listedCount}/${target} listed (${secs} s)`);
    }
  }
}
