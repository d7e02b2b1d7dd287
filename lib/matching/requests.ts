/** Book requests (wanted books): the caller's own, created, listed and deleted. */
import { ulid } from 'ulid';
import { Course, Edition, Isbn, Name } from '#lib/books/inputs.ts';
import { normaliseCourse } from '#lib/books/text.ts';
import {
  deleteMatchesOfRequest,
  deleteRequestRecord,
  listRequests,
  MAX_OPEN_REQUESTS,
  putRequest,
  type RequestRecord,
} from '#lib/db/requests.ts';
import { Conflict, NotFound } from '#lib/errors.ts';
import * as z from '#lib/zod.ts';
import { keyWord, significantWords } from './title-words.ts';

/** The fields share the listing rules (lib/books/inputs.ts): the ISBN comes out as its ISBN-13. */
export const RequestBookBody = z.strictObject({
  name: Name,
  course: Course,
  edition: z.optional(Edition),
  ISBN: z.optional(z.nullable(Isbn)),
});
export type RequestBookBody = z.output<typeof RequestBookBody>;

/** A request as clients see it. */
export const BookRequest = z.strictObject({
  id: z.string(),
  name: z.string(),
  course: z.string(),
  edition: z.nullable(z.number().check(z.int())),
  ISBN: z.nullable(z.string()),
  date: z.iso.datetime(),
});
export type BookRequest = z.infer<typeof BookRequest>;

export const DeleteRequestBody = z.strictObject({
  requestId: z.string().check(z.minLength(1), z.maxLength(64)),
});

export const toApiRequest = (r: RequestRecord): BookRequest => ({
  id: r.id,
  name: r.name,
  course: r.course,
  edition: r.edition,
  ISBN: r.ISBN,
  date: r.createdAt,
});

/** Builds the stored request from the body (ISBN as ISBN-13, course and title words normalised). Pure. */
export function newRequestRecord(
  userId: string,
  body: RequestBookBody,
  now: Date,
  id = ulid(now.getTime()),
  campus: string | null = null,
): RequestRecord {
  const words = significantWords(body.name);
  return {
    type: 'request',
    id,
    userId,
    name: body.name,
    course: body.course,
    courseNorm: normaliseCourse(body.course),
    edition: body.edition ?? null,
    ISBN: body.ISBN ?? null,
    words,
    keyWord: keyWord(words),
    createdAt: now.toISOString(),
    ...(campus ? { campus } : {}),
  };
}

/** Stores a request; the stream consumer matches it against listed books. */
export async function requestBook(
  requester: { userId: string; campus: string },
  body: RequestBookBody,
): Promise<BookRequest> {
  const now = new Date();
  const record = newRequestRecord(requester.userId, body, now, ulid(now.getTime()), requester.campus);
  if ((await putRequest(record)) === 'too-many') {
    throw new Conflict(`You can have at most ${MAX_OPEN_REQUESTS} open requests; delete one first.`);
  }
  return toApiRequest(record);
}

/** The caller's requests, newest first. */
export async function getRequests(userId: string): Promise<BookRequest[]> {
  return (await listRequests(userId)).map(toApiRequest);
}

/** Deletes one of the caller's requests and its matches; another user's id is a 404. */
export async function deleteRequest(userId: string, requestId: string): Promise<{ id: string }> {
  if (!(await deleteRequestRecord(userId, requestId))) throw new NotFound('No such request.');
  await deleteMatchesOfRequest(userId, requestId);
  return { id: requestId };
}
