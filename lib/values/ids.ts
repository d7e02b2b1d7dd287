/**
 * The one rule for an id a client sends back (a book, user, order or point id): 1-64 characters
 * that ids are made of (letters, digits, `_` and `-`), so nothing of the key syntax (`#`) gets in.
 */
import * as z from '#lib/zod.ts';

/** An id as clients send it; `what` names it in the refusal ("Not a book id."). */
export const IdOf = (what: string) =>
  z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[A-Za-z0-9_-]+$/, `Not ${what}.`));
