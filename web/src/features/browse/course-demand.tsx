/**
 * "3 students want this book" beside a search for a course, for sellers (issue 33, item 6): the
 * open requests of the course at the caller's campus, one small read (GET
 * /api/books/courseRequests/{course}); nothing without a session or without requests.
 */
import { useQuery } from '@tanstack/react-query';
import { courseText } from '#web/books.ts';
import { courseRequestsQuery } from '#web/features/browse/queries.ts';
import { courseOfQuery, prefillHref } from '#web/prefill.ts';
import { Link } from '#web/router.tsx';

export function CourseDemand({ q, signedIn }: { q: string; signedIn: boolean }) {
  const course = courseOfQuery(q);
  const demand = useQuery({ ...courseRequestsQuery(course ?? ''), enabled: signedIn && course !== null });
  // other students, each once (not the caller's own requests, not one student's several)
  const n = demand.data?.students ?? 0;
  if (!course || n === 0) return null;
  return (
    <p className="course-demand">
      {n === 1 ? '1 student wants' : `${n} students want`} a book for {courseText(demand.data?.course ?? '')}.{' '}
      <Link href={prefillHref('/sell', q)}>Sell yours</Link>
    </p>
  );
}
