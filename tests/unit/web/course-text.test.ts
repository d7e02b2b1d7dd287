/** Course codes as the web app shows them (web/src/books.ts courseText), by the service's own rule. */
import { describe, expect, it } from 'vitest';
import { courseParts, normaliseCourse } from '#lib/books/text.ts';
import { courseText } from '#web/books.ts';

describe('courseText', () => {
  it('shows every way of typing a course code as "DEPT 123"', () => {
    for (const typed of ['chem203', 'Chem 203', 'CHEM-203', ' chem  203 ', 'CHEM 203', 'chem.203']) {
      expect(courseText(typed)).toBe('CHEM 203');
    }
    expect(courseText('math221a')).toBe('MATH 221A');
    expect(courseText('Écon 101')).toBe('ECON 101');
  });

  it('shows a course of another shape as typed, trimmed', () => {
    expect(courseText(' Intro to Psych ')).toBe('Intro to Psych');
    expect(courseText('CS 1 2')).toBe('CS 12'); // one code once squashed, as the service reads it
    expect(courseText('101')).toBe('101');
  });

  it('agrees with the service: a code is what courseParts reads from normaliseCourse', () => {
    for (const typed of ['chem203', 'MATH 221A', 'Intro to Psych', 'A1', 'PHYSICS12345', 'x-1', 'ÉCON101']) {
      const parts = courseParts(normaliseCourse(typed));
      expect(courseText(typed)).toBe(parts ? `${parts.dept} ${parts.number}` : typed.trim());
    }
  });
});
