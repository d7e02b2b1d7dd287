/** The book types of the API's answers, generated from the API document. */
import type { paths } from '#web/api.gen.ts';

export type Book =
  paths['/api/books/getAllBooks']['get']['responses'][200]['content']['application/json']['data'][number];

export type BookDetail =
  paths['/api/books/getBook/{bookId}']['get']['responses'][200]['content']['application/json']['data'];

/**
 * The condition grades, best first, and how every page names them: in words ("Like new"), never
 * as the API's values ("like-new"). `''` is the filter's "any".
 */
export const CONDITIONS = ['new', 'like-new', 'very-good', 'good', 'acceptable'];
export const CONDITION_LABELS: Record<string, string> = {
  '': 'Any condition',
  new: 'New',
  'like-new': 'Like new',
  'very-good': 'Very good',
  good: 'Good',
  acceptable: 'Acceptable',
};

/** A grade in words; one the list does not know is shown as it is. */
export const conditionName = (grade: string): string => (grade && CONDITION_LABELS[grade]) || grade;

/** A course code's letters and digits only, upper case, accents off: two codes are one course when these are equal. */
export const squashCourse = (course: string): string =>
  course
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

/**
 * A course code as every page shows it, whatever way its seller typed it: "chem203", "Chem-203"
 * and "CHEM 203" all read "CHEM 203" (the letters, one space, the number and its letter). The
 * service's rule for what a course code is (lib/books/text.ts `normaliseCourse`, `courseParts`),
 * checked equal in unit/web/course-text.test.ts; a course of another shape is shown as typed.
 */
export function courseText(course: string): string {
  const m = /^(\p{L}{2,8})(\d{1,5}\p{L}?)$/u.exec(squashCourse(course));
  return m ? `${m[1]} ${m[2]}` : course.trim();
}

/** One of the seller's own books (My listings), with its status and photos. */
export type Listing =
  paths['/api/books/getUsersPosts']['get']['responses'][200]['content']['application/json']['data'][number];
