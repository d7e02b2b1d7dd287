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

/** An answer of a handler invoked in the tests: its status and its JSON body. */
interface Answer {
  status: number;
  json: () => unknown;
}

/** Asserts a 200 answer whose body is the envelope around `data` (schema-checked); returns the data. */
export function expectOk<T extends z.core.$ZodType>(res: Answer, data: T): z.output<T> {
  expect(res.status).toBe(200);
  return expectEnvelope(res.json(), data);
}

/** Asserts a refusal: the status and an error envelope with the given code; returns its data. */
export function expectRefusal(res: Answer, status: number, code: string) {
  expect(res.status).toBe(status);
  return expectError(res.json(), code);
}
