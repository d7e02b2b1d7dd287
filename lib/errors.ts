/**
 * The domain errors every layer throws. They say what went wrong (not found, conflict, not
 * allowed, ...) and carry the data a refusal needs (details, the seconds to wait, the auth
 * challenge), but nothing of HTTP: lib/http/error-mapper.ts is the one place that turns them into
 * statuses and headers; anything else is an internal error, logged and never shown.
 */
export interface ErrorDetail {
  field?: string;
  message: string;
  [key: string]: unknown;
}

/** The base of every expected refusal: a stable `code` for clients, a message and optional details. */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The input is invalid (bad shape, unknown cursor, bad link, ...). */
export class BadRequest extends DomainError {
  constructor(message = 'The request is invalid.', details?: ErrorDetail[], code = 'BAD_REQUEST') {
    super(code, message, details);
  }
}

/** The caller is not (or no longer) known. `challenge` names how to authenticate, e.g. `Bearer`. */
export class Unauthorized extends DomainError {
  constructor(
    message = 'Authentication is required.',
    code = 'UNAUTHORIZED',
    readonly challenge?: string,
  ) {
    super(code, message);
  }
}

/** The caller is known but may not do this. */
export class Forbidden extends DomainError {
  constructor(message = 'You are not allowed to do this.', code = 'FORBIDDEN') {
    super(code, message);
  }
}

/** The thing asked for does not exist (or is not the caller's to see). */
export class NotFound extends DomainError {
  constructor(message = 'No such thing.', code = 'NOT_FOUND') {
    super(code, message);
  }
}

/** The request conflicts with the current state (wrong status, already taken, limit reached, ...). */
export class Conflict extends DomainError {
  constructor(
    message = 'The request conflicts with the current state.',
    details?: ErrorDetail[],
    code = 'CONFLICT',
  ) {
    super(code, message, details);
  }
}

/** The input is larger than the limit. */
export class TooLarge extends DomainError {
  constructor(readonly limitBytes: number) {
    super('PAYLOAD_TOO_LARGE', `The request body is larger than ${limitBytes} bytes.`);
  }
}

/** The body is not in a media type the route takes (e.g. not application/json). */
export class UnsupportedMediaType extends DomainError {
  constructor(accepted: string[]) {
    super('UNSUPPORTED_MEDIA_TYPE', `Send the body as ${accepted.join(' or ')} (Content-Type).`);
  }
}

/** Well formed but not processable as sent (e.g. an Idempotency-Key reused for another request). */
export class Unprocessable extends DomainError {
  constructor(message: string, code = 'UNPROCESSABLE', details?: ErrorDetail[]) {
    super(code, message, details);
  }
}

/** Too many attempts in a window; try again after `retryAfterSeconds`. */
export class TooManyRequests extends DomainError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, message = 'Too many attempts. Try again later.') {
    super('TOO_MANY_REQUESTS', message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/** The store is busy (writes kept conflicting); try again after `retryAfterSeconds`. */
export class Busy extends DomainError {
  constructor(
    message = 'The service is busy. Try again shortly.',
    readonly retryAfterSeconds = 1,
  ) {
    super('SERVICE_UNAVAILABLE', message);
  }
}
