import { expect } from 'vitest';
import type { z } from 'zod';
import { ErrorEnvelope, envelope } from '#lib/http/schemas.ts';

/** Asserts that `body` is the envelope around `data` (schema-checked) and returns the parsed data. */
export function expectEnvelope<T extends z.core.$ZodType>(body: unknown, data: T): z.output<T> {
  const parsed = envelope(data).safeParse(body);
  if (!parsed.success)
    expect.fail(`response does not match its schema: ${parsed.error.message}\n${JSON.stringify(body)}`);
  return (parsed.data as { data: unknown }).data as z.output<T>;
}

/** Asserts an error envelope with the given code and returns its data. */
export function expectError(body: unknown, code?: string) {
  const parsed = ErrorEnvelope.safeParse(body);
  if (!parsed.success)
    expect.fail(`error response does not match its schema: ${parsed.error.message}\n${JSON.stringify(body)}`);
  if (code) expect(parsed.data.data.code).toBe(code);
  return parsed.data.data;
}
