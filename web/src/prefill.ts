/**
 * What an empty search's "Request this book" and "Sell yours" fill in from the query (issue 33,
 * item 6): an ISBN (10 or 13 digits, hyphens and spaces allowed) as the ISBN, a course code
 * (letters then a number, any separator: `MATH 235`, `math-235`) as the course, anything else as
 * the title. The service checks every field again; this only saves typing.
 */
export interface Prefill {
  name?: string;
  course?: string;
  ISBN?: string;
}

const ISBN = /^(\d{9}[\dXx]|\d{13})$/;
const COURSE = /^\p{L}{2,8}[^\p{L}\p{N}]*\d{1,5}\p{L}?$/u;

export function prefillOf(query: string): Prefill {
  const q = query.trim();
  if (ISBN.test(q.replace(/[\s-]/g, ''))) return { ISBN: q };
  if (COURSE.test(q)) return { course: q };
  return q ? { name: q } : {};
}

/** The address of a page with the prefill in its query (`/requests?name=...`). */
export const prefillHref = (path: string, query: string): string => {
  const params = new URLSearchParams(prefillOf(query) as Record<string, string>).toString();
  return params ? `${path}?${params}` : path;
};

/** The prefill a page address carries (only the three fields, each cut to what a form takes). */
export function prefillFrom(params: URLSearchParams): Required<Prefill> {
  const get = (k: keyof Prefill, max: number) => (params.get(k) ?? '').slice(0, max);
  return { name: get('name', 200), course: get('course', 40), ISBN: get('ISBN', 20) };
}

/** The course code of a search query (`MATH-235` -> `MATH 235` as typed), or null. */
export const courseOfQuery = (query: string): string | null => prefillOf(query).course ?? null;
