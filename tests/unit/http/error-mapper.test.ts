import { describe, expect, it } from 'vitest';
import {
  BadRequest,
  Busy,
  Conflict,
  Forbidden,
  NotFound,
  TooLarge,
  TooManyRequests,
  Unauthorized,
} from '#lib/errors.ts';
import { statusOf } from '#lib/http/error-mapper.ts';

describe('the error mapper: the one place domain errors become statuses', () => {
  it('maps each domain error to its status', () => {
    expect(statusOf(new BadRequest())).toEqual({ status: 400, headers: {} });
    expect(statusOf(new Unauthorized())).toEqual({ status: 401, headers: {} });
    expect(statusOf(new Forbidden())).toEqual({ status: 403, headers: {} });
    expect(statusOf(new NotFound())).toEqual({ status: 404, headers: {} });
    expect(statusOf(new Conflict())).toEqual({ status: 409, headers: {} });
    expect(statusOf(new TooLarge(16))).toEqual({ status: 413, headers: {} });
  });

  it('turns the data a refusal carries into headers', () => {
    expect(statusOf(new Unauthorized('no', 'TOKEN_MISSING', 'Bearer'))).toEqual({
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
    expect(statusOf(new TooManyRequests(2.2))).toEqual({ status: 429, headers: { 'Retry-After': '3' } });
    expect(statusOf(new Busy('busy', 4))).toEqual({ status: 503, headers: { 'Retry-After': '4' } });
  });

  it('leaves anything else to the 500 path', () => {
    expect(statusOf(new Error('boom'))).toBeNull();
    expect(statusOf('nope')).toBeNull();
  });
});
