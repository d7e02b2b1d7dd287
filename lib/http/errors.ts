/**
 * The error classes every layer throws. lib/http/error-mapper.ts turns them into the envelope;
 * anything else becomes a 500 with a request id, logged and never shown.
 */
export interface ErrorDetail {
  field?: string;
  message: string;
  [key: string]: unknown;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends HttpError {
  constructor(message = 'The request is invalid.', details?: ErrorDetail[], code = 'BAD_REQUEST') {
    super(400, code, message, details);
  }
}

export class Unauthorized extends HttpError {
  constructor(
    message = 'Authentication is required.',
    code = 'UNAUTHORIZED',
    headers: Record<string, string> = {},
  ) {
    super(401, code, message, undefined, headers);
  }
}

export class Forbidden extends HttpError {
  constructor(message = 'You are not allowed to do this.', code = 'FORBIDDEN') {
    super(403, code, message);
  }
}

export class NotFound extends HttpError {
  constructor(message = 'No such thing.', code = 'NOT_FOUND') {
    super(404, code, message);
  }
}

export class Conflict extends HttpError {
  constructor(
    message = 'The request conflicts with the current state.',
    details?: ErrorDetail[],
    code = 'CONFLICT',
  ) {
    super(409, code, message, details);
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(limitBytes: number) {
    super(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${limitBytes} bytes.`);
  }
}

export class UnsupportedMediaType extends HttpError {
  constructor(accepted: string[]) {
    super(415, 'UNSUPPORTED_MEDIA_TYPE', `Send the body as ${accepted.join(' or ')} (Content-Type).`);
  }
}

/** The request is well formed but cannot be processed as sent (e.g. a reused Idempotency-Key). */
export class UnprocessableEntity extends HttpError {
  constructor(message: string, code = 'UNPROCESSABLE', details?: ErrorDetail[]) {
    super(422, code, message, details);
  }
}

export class TooManyRequests extends HttpError {
  constructor(retryAfterSeconds: number, message = 'Too many attempts. Try again later.') {
    super(429, 'TOO_MANY_REQUESTS', message, undefined, {
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }
}

export class ServiceUnavailable extends HttpError {
  constructor(message = 'The service is busy. Try again shortly.', retryAfterSeconds = 1) {
    super(503, 'SERVICE_UNAVAILABLE', message, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}
