import { courseDemand } from '#lib/books/course-demand.ts';
import { Course } from '#lib/books/inputs.ts';
import { http } from '#lib/http/index.ts';
import * as z from '#lib/zod.ts';

const CourseDemand = z.strictObject({
  course: z.string(),
  campus: z.string(),
  openRequests: z.number().check(z.int(), z.nonnegative()),
  /** the students who made them, the caller left out (several requests of one student count once) */
  students: z.number().check(z.int(), z.nonnegative()),
});

/** GET /api/books/courseRequests/{course}: how many students of the caller's campus want a course's book. */
export const handler = http(
  {
    params: z.strictObject({ course: Course }),
    response: CourseDemand,
    errors: [400],
    summary: "Open requests for a course at the caller's campus (shown to sellers beside a course search)",
  },
  async ({ params, principal }) => courseDemand(principal.userId, principal.campus, params.course),
);
