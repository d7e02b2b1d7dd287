import { describe, expect, it } from 'vitest';
import * as errors from '#lib/errors.ts';
import { statusOf } from '#lib/http/error-mapper.ts';

describe('the error mapper: the one place domain errors become statuses', () => {
  it('maps each domain error to its status', () => {
    expect(statusOf(new errors.BadRequest())).toEqual({ status: 400, headers: {} });
    expect(statusOf(new errors.Unauthorized())).toEqual({ status: 401, headers: {} });
    expect(statusOf(new errors.Forbidden())).toEqual({ status: 403, headers: {} });
    expect(statusOf(new errors.NotFound())).toEqual({ status: 404, headers: {} });
    expect(statusOf(new errors.Conflict())).toEqual({ status: 409, headers: {} });
    expect(statusOf(new errors.TooLarge(16))).toEqual({ status: 413, headers: {} });
  });

  it('turns the data a refusal carries into headers', () => {
    expect(statusOf(new errors.Unauthorized('no', 'TOKEN_MISSING', 'Bearer'))).toEqual({
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
    expect(statusOf(new errors.TooManyRequests(2.2))).toEqual({
      status: 429,
      headers: { 'Retry-After': '3' },
    });
    expect(statusOf(new errors.Busy('busy', 4))).toEqual({ status: 503, headers: { 'Retry-After': '4' } });
  });

  it('leaves anything else to the 500 path', () => {
    expect(statusOf(new Error('boom'))).toBeNull();
    expect(statusOf('nope')).toBeNull();
  });
});
