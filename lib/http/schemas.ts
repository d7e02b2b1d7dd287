/**
 * Response schemas of the shared layer: the envelope around every marketplace answer and the
 * error payload. Endpoint schemas wrap their `data` schema with `envelope()`.
 */
import * as z from '#lib/zod.ts';

export const ErrorData = z.strictObject({
  error: z.string().check(z.minLength(1)),
  code: z.string().check(z.regex(/^[A-Z_]+$/)),
  details: z.optional(z.array(z.looseObject({ message: z.string(), field: z.optional(z.string()) }))),
  requestId: z.optional(z.string()),
});

export const envelope = <T extends z.core.$ZodType>(data: T) =>
  z.strictObject({
    data,
    time: z.iso.datetime(),
    method: z.string().check(z.regex(/^(GET|POST|PUT|DELETE|PATCH) \/api\//)),
    next: z.optional(z.nullable(z.string())),
  });

export const ErrorEnvelope = envelope(ErrorData);
