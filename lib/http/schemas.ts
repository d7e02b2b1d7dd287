/**
 * Response schemas of the shared layer: the envelope around every marketplace answer and the
 * error payload. Endpoint schemas wrap their `data` schema with `envelope()`.
 */
import { z } from 'zod';

export const ErrorData = z.strictObject({
  error: z.string().min(1),
  code: z.string().regex(/^[A-Z_]+$/),
  details: z.array(z.looseObject({ message: z.string(), field: z.string().optional() })).optional(),
  requestId: z.string().optional(),
});

export const envelope = <T extends z.ZodType>(data: T) =>
  z.strictObject({
    data,
    time: z.iso.datetime(),
    method: z.string().regex(/^(GET|POST|PUT|DELETE|PATCH) \/api\//),
    next: z.string().nullable().optional(),
  });

export const ErrorEnvelope = envelope(ErrorData);
