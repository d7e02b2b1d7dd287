/**
 * Realistic, deterministic benchmark data (pure): campus textbooks with real-looking titles, course
 * codes, editions, prices and valid ISBN-13s, dated back from now (olderSpan).
 */
import { ulid } from 'ulid';
import type { BookRecord, UserRecord } from '#lib/db/records.ts';
import { CONDITION_GRADES, type ConditionGrade } from '#lib/values/condition.ts';

/** A small deterministic PRNG (mulberry32), so every run seeds the same shape of data. */
/** Every bench user's campus (their addresses are @bench-university.edu). */
export const BENCH_CAMPUS = 'bench-university.edu';

export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The item of call `i` when the calls take `items` in turn (call i gets item i mod their number). */
export const inTurn =
  <T>(items: readonly T[]) =>
  (i: number): T =>
    items[i % items.length] as T;

/**
 * Titles with their course and a weight. "Calculus" titles make up about 10 % of the books and
 * course MTH 161 about 6 %, so the benchmark's search and matches fill a page at 1,000 books.
 */
export const CATALOGUE: ReadonlyArray<{ name: string; course: string; weight: number }> = [
  { name: 'Calculus: Early Transcendentals', course: 'MTH 161', weight: 6 },
  { name: 'Multivariable Calculus', course: 'MTH 164', weight: 2 },
  { name: 'Calculus for the Life Sciences', course: 'MTH 141', weight: 2 },
  { name: 'Linear Algebra and Its Applications', course: 'MTH 165', weight: 3 },
  { name: 'Discrete Mathematics and Its Applications', course: 'CSC 173', weight: 3 },
  { name: 'Introduction to Algorithms', course: 'CSC 282', weight: 3 },
  { name: 'Data Structures and Algorithm Analysis in Java', course: 'CSC 172', weight: 3 },
  { name: 'Computer Systems: A Programmer’s Perspective', course: 'CSC 252', weight: 2 },
  { name: 'Operating System Concepts', course: 'CSC 256', weight: 2 },
  { name: 'Artificial Intelligence: A Modern Approach', course: 'CSC 242', weight: 2 },
  { name: 'Organic Chemistry', course: 'CHM 203', weight: 3 },
  { name: 'General Chemistry: Principles and Modern Applications', course: 'CHM 131', weight: 3 },
  { name: 'Campbell Biology', course: 'BIO 110', weight: 3 },
  { name: 'Molecular Biology of the Cell', course: 'BIO 198', weight: 2 },
  { name: 'University Physics with Modern Physics', course: 'PHY 121', weight: 3 },
  { name: 'Fundamentals of Physics', course: 'PHY 113', weight: 2 },
  { name: 'Principles of Economics', course: 'ECO 108', weight: 3 },
  { name: 'Intermediate Microeconomics', course: 'ECO 207', weight: 2 },
  { name: 'Psychology', course: 'PSY 101', weight: 3 },
  { name: 'Introduction to Sociology', course: 'SOC 101', weight: 2 },
  { name: 'The Norton Anthology of English Literature', course: 'ENG 120', weight: 2 },
  { name: 'A Pocket Style Manual', course: 'WRT 105', weight: 2 },
  { name: 'Statistics: The Art and Science of Learning from Data', course: 'STT 211', weight: 3 },
  { name: 'Probability and Statistics for Engineers', course: 'STT 213', weight: 2 },
  { name: 'Engineering Mechanics: Statics', course: 'ME 120', weight: 2 },
  { name: 'Signals and Systems', course: 'ECE 241', weight: 2 },
  { name: 'Microelectronic Circuits', course: 'ECE 221', weight: 2 },
  { name: 'Western Civilizations', course: 'HIS 101', weight: 2 },
  { name: 'Philosophy: The Power of Ideas', course: 'PHL 101', weight: 2 },
  { name: 'Introduction to Political Science', course: 'PSC 101', weight: 2 },
  { name: 'Financial Accounting', course: 'ACC 201', weight: 2 },
  { name: 'Marketing Management', course: 'MKT 203', weight: 2 },
];

const CONDITIONS = CONDITION_GRADES;
const COMMENTS = [
  '',
  'Some pencil notes in chapter 3.',
  'Access code not included.',
  'Cover slightly worn.',
  'Pick-up at the library or campus mail.',
];
const FIRST_NAMES = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Donald',
  'Frances',
  'Ken',
  'Radia',
  'Leslie',
];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson'];

/** Normalised course code, as the books area stores it (upper case, no spaces or hyphens). */
export const courseNorm = (course: string): string => course.toUpperCase().replace(/[\s-]/g, '');

/** A valid ISBN-13 (978 prefix) from nine random digits. */
export function isbn13(random: () => number): string {
  let digits = '978';
  for (let i = 0; i < 9; i++) digits += String(Math.floor(random() * 10));
  const sum = [...digits].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return digits + String((10 - (sum % 10)) % 10);
}

const pickWeighted = (random: () => number) => {
  const total = CATALOGUE.reduce((s, c) => s + c.weight, 0);
  let r = random() * total;
  for (const c of CATALOGUE) {
    r -= c.weight;
    if (r < 0) return c;
  }
  return CATALOGUE[0] as (typeof CATALOGUE)[number];
};

export const BENCH_PASSWORD = 'bench-password-1';

/** `n` confirmed users with the same password hash (one hash, computed once). */
export function makeUsers(n: number, passwordHash: string, random: () => number): UserRecord[] {
  const createdAt = new Date(Date.now() - 90 * 86_400_000).toISOString();
  return Array.from({ length: n }, (_, i) => {
    const email = `bench.user${i}@bench-university.edu`;
    return {
      type: 'user',
      id: ulid(),
      emailAddress: email,
      emailNormalised: email,
      firstName: FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)] as string,
      lastName: LAST_NAMES[Math.floor(random() * LAST_NAMES.length)] as string,
      university: 'Bench University',
      campusMailbox: `CPU ${1000 + i}`,
      paymentUsername: `@bench${i}`,
      permissionType: 0,
      createdAt,
      passwordHash,
      tokenVersion: 0,
    };
  });
}

/** A span of dates books are spread over: the `days` before `before` (ms). */
export interface DateSpan {
  before: number;
  days: number;
}

const DAY_MS = 86_400_000;

/** Books seeded per day of their span: 10,000 books cover the last 50 days. */
export const SEEDED_PER_DAY = 200;

/**
 * The span of the next `n` seeded books: the days just before the oldest book already seeded
 * (`oldest`, ms; none: now), at SEEDED_PER_DAY. Each top-up is then older than every book before
 * it, so the newest pages (listing, search, matches) hold the same books at every size and a
 * flat-cost check compares the same page over a bigger table.
 */
export const olderSpan = (n: number, oldest: number | undefined, now: number): DateSpan => ({
  before: oldest ?? now,
  days: n / SEEDED_PER_DAY,
});

/** `n` listed books owned round-robin by `owners`, dated over `span` (default: the last 50 days). */
export function makeBooks(
  n: number,
  owners: ReadonlyArray<Pick<UserRecord, 'id' | 'firstName'>>,
  random: () => number,
  offset = 0,
  span: DateSpan = { before: Date.now(), days: 50 },
): BookRecord[] {
  return Array.from({ length: n }, (_, k) => {
    const entry = pickWeighted(random);
    const owner = owners[(offset + k) % owners.length] as Pick<UserRecord, 'id' | 'firstName'>;
    // strictly before `span.before`: a top-up's books never tie with the ones seeded before
    const date = new Date(span.before - 1 - Math.floor(random() * span.days * DAY_MS)).toISOString();
    return {
      type: 'book',
      id: ulid(),
      name: entry.name,
      edition: 1 + Math.floor(random() * 12),
      course: entry.course,
      courseNorm: courseNorm(entry.course),
      priceCents: Math.round((5 + random() * 195) * 100),
      condition: CONDITIONS[Math.floor(random() * CONDITIONS.length)] as ConditionGrade,
      comments: COMMENTS[Math.floor(random() * COMMENTS.length)] as string,
      ISBN: random() < 0.8 ? isbn13(random) : null,
      status: 0,
      date,
      ownerId: owner.id,
      ownerFirstName: owner.firstName,
      campus: BENCH_CAMPUS,
    };
  });
}
