/** The hand-over routes' inputs and answers (docs/handover.md). */
import { SINGLE_LINE } from '#lib/books/inputs.ts';
import { CAMPUS_PATTERN } from '#lib/values/campus.ts';
import { isTimeZone, minutesOf } from '#lib/values/hours.ts';
import { IdOf } from '#lib/values/ids.ts';
import * as z from '#lib/zod.ts';

export { Handover } from '#lib/orders/handover.ts';

const Id = IdOf('a valid id');
const line = (min: number, max: number) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(min),
      z.maxLength(max),
      z.regex(SINGLE_LINE, 'Control characters (including newlines) are not allowed.'),
    );
const HHMM = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a 24-hour time, HH:MM.'));

/** One weekly opening: ISO weekday (1 Monday .. 7 Sunday), opens before it closes, same day. */
export const Opening = z
  .strictObject({
    day: z.number().check(z.int(), z.gte(1), z.lte(7)),
    opens: HHMM,
    closes: HHMM,
  })
  .check(z.refine((o) => minutesOf(o.opens) < minutesOf(o.closes), 'An opening must close after it opens.'));

export const HandoverPoint = z.strictObject({
  id: z.string(),
  campus: z.string(),
  name: z.string(),
  /** where exactly at the point (a desk, a door) */
  location: z.string(),
  /** the IANA time zone of the hours */
  timeZone: z.string(),
  hours: z.array(Opening),
});
export type HandoverPoint = z.infer<typeof HandoverPoint>;
export const HandoverPointList = z.array(HandoverPoint);

/** A campus a point belongs to: one domain (any case), never `all`, whose points nobody would see. */
const PointCampus = z.string().check(
  z.trim(),
  z.toLowerCase(),
  z.refine((c) => c !== 'all' && CAMPUS_PATTERN.test(c), 'Not a campus (a domain such as uni.edu).'),
);

/** putHandoverPoint: a new point (no pointId) or the whole of an existing one. */
export const PutPointBody = z.strictObject({
  pointId: z.optional(Id),
  campus: PointCampus,
  name: line(1, 100),
  location: z._default(line(0, 300), ''),
  timeZone: z
    .string()
    .check(z.refine(isTimeZone, 'Not a time zone (an IANA name such as America/New_York).')),
  hours: z.pipe(
    z.array(Opening).check(
      z.minLength(1),
      z.maxLength(28),
      // named on the later of the two rows, so the form shows it there
      z.superRefine((hours, ctx) => {
        const overlap = overlapOf(hours);
        if (overlap)
          ctx.addIssue({
            code: 'custom',
            path: [overlap[1]],
            message: `This opening overlaps opening ${overlap[0] + 1} (or is the same): make each day’s openings separate.`,
          });
      }),
    ),
    // stored and shown by day, then by time (Monday first), whatever order they were typed in
    z.transform((hours) =>
      [...hours].sort((a, b) => a.day - b.day || minutesOf(a.opens) - minutesOf(b.opens)),
    ),
  ),
});

/** The first two openings of one day that overlap (sharing only an end is fine), or null. Pure. */
export function overlapOf(
  hours: ReadonlyArray<{ day: number; opens: string; closes: string }>,
): [number, number] | null {
  for (let i = 0; i < hours.length; i++)
    for (let j = i + 1; j < hours.length; j++) {
      const a = hours[i];
      const b = hours[j];
      if (
        a &&
        b &&
        a.day === b.day &&
        minutesOf(a.opens) < minutesOf(b.closes) &&
        minutesOf(b.opens) < minutesOf(a.closes)
      )
        return [i, j];
    }
  return null;
}
export const PointIdBody = z.strictObject({ pointId: Id });
/** getHandoverPoints of the dashboard: the points of any one campus. */
export const PointsQuery = z.strictObject({ campus: PointCampus });
export const RemovedPoint = z.strictObject({ pointId: z.string(), removed: z.literal(true) });

export const ProposeBody = z.strictObject({
  orderId: Id,
  sellerId: Id,
  pointId: Id,
  /** the slot, ISO-8601 with a zone (`Z` or an offset) */
  at: z.iso.datetime({ offset: true }),
});

export const ProposalId = z
  .string()
  .check(
    z.maxLength(200),
    z.regex(/^[A-Za-z0-9-]+_[A-Za-z0-9-]+_[0-9A-HJKMNP-TV-Z]{26}$/, 'Not a proposal id.'),
  );
export const AnswerBody = z.strictObject({ proposalId: ProposalId, accept: z.boolean() });
