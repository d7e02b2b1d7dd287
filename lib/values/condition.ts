/**
 * Condition grades of a book (API.md, "Additions"): `new`, `like-new`, `very-good`, `good`,
 * `acceptable`. Input is case-insensitive and accepts spaces for hyphens (`Like New`).
 */
export const CONDITION_GRADES = ['new', 'like-new', 'very-good', 'good', 'acceptable'] as const;
export type ConditionGrade = (typeof CONDITION_GRADES)[number];

const canonical = (text: string): string =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-');

/** Whether a value is already a grade as stored (exactly, no case or spacing to fix). */
export const isGrade = (value: unknown): value is ConditionGrade =>
  (CONDITION_GRADES as readonly unknown[]).includes(value);

/** The grade a client wrote, or null when it is none of them. */
export function parseGrade(text: string): ConditionGrade | null {
  const form = canonical(text);
  return (CONDITION_GRADES as readonly string[]).includes(form) ? (form as ConditionGrade) : null;
}

/** Words of today's free-text conditions and the grade each stands for (first hit wins). */
const LEGACY_WORDS: Array<[RegExp, ConditionGrade]> = [
  [/\b(like|as|almost|nearly)[\s-]*new\b|\bmint\b|\bexcellent\b|\bpristine\b/, 'like-new'],
  [/\bbrand[\s-]*new\b|\bunused\b|\bsealed\b|^new$/, 'new'],
  [/\bvery[\s-]*good\b|\bgreat\b/, 'very-good'],
  [/\bacceptable\b|\bfair\b|\bpoor\b|\bworn\b|\bdamaged\b|\bheavily\b/, 'acceptable'],
  [/\bgood\b|\bused\b|\bok(ay)?\b|\bdecent\b/, 'good'],
];

/**
 * The grade of a stored condition: a grade as is, else the grade today's free text stands for
 * (`Brand new` -> new, `Used` -> good), `good` when nothing in it says more. Used by reads of
 * records not yet migrated and by the migration script.
 */
export function gradeOf(stored: unknown): ConditionGrade {
  if (isGrade(stored)) return stored;
  if (typeof stored !== 'string') return 'good';
  const exact = parseGrade(stored);
  if (exact) return exact;
  const text = stored.trim().toLowerCase();
  for (const [pattern, grade] of LEGACY_WORDS) if (pattern.test(text)) return grade;
  return 'good';
}
