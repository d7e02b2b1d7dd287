import { BadRequest, type ErrorDetail } from '#lib/errors.ts';
import type * as z from '#lib/zod.ts';

type Where = 'body' | 'query' | 'path';

/** zod issues -> one detail per bad field (unknown keys listed one by one). */
export function issuesToDetails(where: Where, issues: z.core.$ZodIssue[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        details.push({
          field: [...issue.path.map(String), key].join('.'),
          in: where,
          message: 'Unknown field.',
        });
      }
    } else {
      details.push({
        field: issue.path.map(String).join('.') || '(root)',
        in: where,
        message: issue.message,
      });
    }
  }
  return details;
}

/**
 * Validates one part of the request. Without a schema, the body and the query must be empty
 * (a field nobody declared is refused, never ignored); path parameters come from the route.
 */
export function validate(
  where: Where,
  schema: z.ZodMiniType | undefined,
  value: Record<string, unknown>,
): unknown {
  if (!schema) {
    const keys = where === 'path' ? [] : Object.keys(value);
    if (keys.length > 0) {
      throw new BadRequest(
        'The request has fields this endpoint does not take.',
        keys.map((k) => ({ field: k, in: where, message: 'Unknown field.' })),
        'VALIDATION_FAILED',
      );
    }
    return undefined;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new BadRequest(
      'The request is invalid.',
      issuesToDetails(where, parsed.error.issues),
      'VALIDATION_FAILED',
    );
  }
  return parsed.data;
}
