/**
 * The one parser for numeric path and query parameters: decimal digits only. `0x10`, `1e1`,
 * `+5`, `1.0`, `' 3'` and an empty string are refused (400), never coerced.
 */
import * as z from '#lib/zod.ts';

export const INT_PARAM_PATTERN = /^\d{1,9}$/;

/** A whole number in [min, max] written as decimal digits. */
export const IntParam = (min: number, max: number) =>
  z.pipe(
    z.pipe(
      z.string().check(z.regex(INT_PARAM_PATTERN, 'Must be a whole number written in decimal digits.')),
      z.transform(Number),
    ),
    z.number().check(z.int(), z.gte(min), z.lte(max)),
  );
