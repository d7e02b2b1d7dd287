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

/** One of the seller's own books (My listings), with its status and photos. */
export type Listing =
  paths['/api/books/getUsersPosts']['get']['responses'][200]['content']['application/json']['data'][number];
