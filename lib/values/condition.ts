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
