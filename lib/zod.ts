/**
 * zod for everything bundled into the functions: the tree-shakable `zod/mini` (issue 19; the
 * classic build's chained methods put ~190 KB into every bundle). zod/mini loads no locale, so
 * without `config` every issue would say just "Invalid input". The 400 details quote these
 * messages and the web app shows each under its field, so they are plain sentences a student
 * understands ("Fill this in.", "Use at most 100 characters."), never schema text such as
 * "Too small: expected string to have >=1 characters" (issue 32 item 5); a schema's own message
 * (`z.regex(RE, 'Invalid token.')`) still wins. Import it as `import * as z from '#lib/zod.ts'`,
 * never from 'zod' or 'zod/mini' directly: a namespace re-exported as a named export
 * (`import { z }`) defeats esbuild's tree shaking and bundles all of zod/mini with every locale
 * (~430 KB).
 */
import { config, type core } from 'zod/mini';

const plural = (n: number | bigint, one: string, many = `${one}s`) => `${n} ${Number(n) === 1 ? one : many}`;

/** What a value of a zod type is, in words ("a number"). */
const KINDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a group of fields',
  date: 'a date',
};

const FORMATS: Record<string, string> = {
  email: 'Enter a valid e-mail address.',
  url: 'Enter a full web address (https://...).',
  uuid: 'This is not a valid id.',
  datetime: 'Enter a date and time.',
  date: 'Enter a date (YYYY-MM-DD).',
  time: 'Enter a time (HH:MM).',
};

/** One issue as a plain sentence. */
export function plainMessage(issue: core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'Fill this in.';
      return `Enter ${KINDS[issue.expected] ?? issue.expected} here.`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `Must be ${String(issue.values[0])}.`
        : `Choose one of: ${issue.values.map(String).join(', ')}.`;
    case 'too_small': {
      const n = issue.minimum;
      if (issue.origin === 'string')
        return Number(n) === 1 && !issue.exact
          ? 'Fill this in.'
          : issue.exact
            ? `Use exactly ${plural(n, 'character')}.`
            : `Use at least ${plural(n, 'character')}.`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Add at least ${plural(n, 'item')}.`;
      return issue.inclusive === false ? `Must be more than ${n}.` : `Must be at least ${n}.`;
    }
    case 'too_big': {
      const n = issue.maximum;
      if (issue.origin === 'string')
        return issue.exact
          ? `Use exactly ${plural(n, 'character')}.`
          : `Use at most ${plural(n, 'character')}.`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Use at most ${plural(n, 'item')}.`;
      return issue.inclusive === false ? `Must be less than ${n}.` : `Must be at most ${n}.`;
    }
    case 'invalid_format':
      if (issue.format === 'starts_with') return `Must start with "${issue.prefix}".`;
      if (issue.format === 'ends_with') return `Must end with "${issue.suffix}".`;
      if (issue.format === 'includes') return `Must contain "${issue.includes}".`;
      return FORMATS[issue.format] ?? 'This is not in the expected form.';
    case 'not_multiple_of':
      return Number(issue.divisor) === 1
        ? 'Enter a whole number.'
        : `Must be a multiple of ${issue.divisor}.`;
    case 'unrecognized_keys':
      return 'Unknown field.';
    default:
      return 'This value is not valid.';
  }
}

config({ localeError: plainMessage });

export * from 'zod/mini';
