/**
 * The one parser for numeric path and query parameters: decimal digits only. `0x10`, `1e1`,
 * `+5`, `1.0`, `' 3'` and an empty string are refused (400), never coerced.
 */
import { z } from 'zod';

export const INT_PARAM_PATTERN = /^\d{1,9}$/;

/** A whole number in [min, max] written as decimal digits. */
export const IntParam = (min: number, max: number) =>
  z
    .string()
    .regex(INT_PARAM_PATTERN, 'Must be a whole number written in decimal digits.')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
