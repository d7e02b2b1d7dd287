/**
 * Course demand for sellers (issue 33, item 6): how many students of the caller's campus have an
 * open request for a course ("3 students want this book"), shown beside a search for that course.
 */
import { requestersOfCourse } from '#lib/db/requests.ts';
import { BadRequest } from '#lib/errors.ts';
import { courseOfQuery } from './search-terms.ts';
import { words } from './text.ts';

export interface CourseDemand {
  /** the course code as searched and stored: upper case, no separators (`MATH235`) */
  course: string;
  campus: string;
  /** open requests at the campus naming the course */
  openRequests: number;
  /** the students who made them, the caller left out (one student's several requests count once) */
  students: number;
}

/** The open requests of a course at the caller's campus, and how many other students made them (one Query). */
export async function courseDemand(callerId: string, campus: string, course: string): Promise<CourseDemand> {
  const courseNorm = courseOfQuery(words(course));
  if (!courseNorm)
    throw new BadRequest(
      'That is not a course code. Write it as letters then a number, like MATH 235.',
      undefined,
      'COURSE_INVALID',
    );
  const requesters = await requestersOfCourse(courseNorm, campus);
  const students = new Set(requesters.filter((id) => id !== callerId)).size;
  return { course: courseNorm, campus, openRequests: requesters.length, students };
}
