import type { ErrorCode } from './generated/error-codes';
import type { RateLimit, ResponseInfo } from './response-info';

/** The response header in which the service says whether the same request may succeed if sent again. */
export const SHOULD_RETRY_HEADER = 'x-should-retry';

/** `code` of an ApiError whose body was not the API's error shape (a proxy's HTML page, a cut connection). */
export const UNEXPECTED_RESPONSE = 'UNEXPECTED_RESPONSE';

export type ApiErrorCode = ErrorCode | typeof UNEXPECTED_RESPONSE;

/** The body of every error response: `{ error: {...} }`. */
export interface ErrorBody {
  error: {
    type: string;
    message: string;
    code: ErrorCode;
    request_id: string;
    param?: string;
  };
}

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

/**
 * Thrown by every SDK call (grouped methods and `raw`) for a non-2xx answer; switch on `code`, a
 * union of the catalogue's codes (`OperationError<'entitlements.get'>` narrows it to the codes that
 * operation documents).
 */
export class ApiError<Code extends ApiErrorCode = ApiErrorCode> extends Error {
  override readonly name: string = 'ApiError';
  /** The error's `type` (`invalid_request_error`, `not_found_error`…), or null for an unexpected body. */
  readonly type: string | null;
  /** meta.request_id of the failed request (also its X-Request-Id): quote it when asking for support. */
  readonly requestId: string | null;
  /** The request field at fault, when there is one. */
  readonly param: string | null;
  /** Seconds to wait before retrying, from Retry-After (429, 503), else null. */
  readonly retryAfter: number | null;
  /** The service's hint (`X-Should-Retry`): true when sending the same request again may succeed, false when it won't, null without one. */
  readonly shouldRetry: boolean | null;
  readonly rateLimit: RateLimit | null;
  /** Headers and retry count of the response. */
  readonly lastResponse: ResponseInfo;

  constructor(
    readonly status: number,
    readonly code: Code,
    message: string,
    info: ResponseInfo,
    readonly body: unknown,
    details: { type: string | null; requestId: string | null; param: string | null },
  ) {
    super(message);
    this.type = details.type;
    this.requestId = details.requestId ?? info.requestId;
    this.param = details.param;
    const retryAfter = Number(info.headers.get('retry-after') ?? Number.NaN);
    this.retryAfter = Number.isFinite(retryAfter) ? retryAfter : null;
    const hint = info.headers.get(SHOULD_RETRY_HEADER);
    this.shouldRetry = hint === 'true' ? true : hint === 'false' ? false : null;
    this.rateLimit = info.rateLimit;
    this.lastResponse = info;
  }

  static from(info: ResponseInfo, body: unknown): ApiError {
    if (isErrorBody(body)) {
      const { code, message, type, request_id: requestId, param } = body.error;
      const ErrorClass = ERROR_CLASSES[type as ApiErrorType] ?? ApiError;
      return new ErrorClass(info.status, code, message, info, body, { type, requestId: requestId ?? null, param: param ?? null });
    }
    const message = `Unexpected ${info.status} response without an API error body`;
    return new ApiError<ApiErrorCode>(info.status, UNEXPECTED_RESPONSE, message, info, body, { type: null, requestId: null, param: null });
  }
}

/** 400 and 413: the request is malformed or invalid (`param` names the field). */
export class InvalidRequestError<Code extends ApiErrorCode = ApiErrorCode> extends ApiError<Code> {
  override readonly name: string = 'InvalidRequestError';
}
/** 401: no key, or an unknown or revoked one. */
export class AuthenticationError<Code extends ApiErrorCode = ApiErrorCode> extends ApiError<Code> {
  override readonly name: string = 'AuthenticationError';
}
/** 402: the plan's storage or bandwidth would be passed. */
export class BillingError<Code extends ApiErrorCode = ApiErrorCode> extends ApiError<Code> {
  override readonly name: string = 'BillingError';
}
/** 403: the key lacks the route's scope, or the entitlement is not active. */
export class PermissionError<Code extends ApiErrorCode = ApiErrorCode> extends ApiError<Code> {
  override readonly name: string = 'PermissionError';
}
/** 404: no such record for this merchant and mode (another merchant's ids are 404 too). */
export class NotFoundError<Code extends ApiErrorCode = ApiErrorCode> extends ApiError<Code> {
  override readonly name: string = 'NotFoundError';
}
/** 409: the record's state forbids it, or the idempotency key names another request. */
export class ConflictError<Code extends ApiErrorCode = ApiErrorCode> extends ApiError<Code> {
  override readonly name: string = 'ConflictError';
}
/** 429: the key's budget for this minute is spent (`retryAfter` says for how long). */
export class RateLimitError<Code extends ApiErrorCode = ApiErrorCode> extends ApiError<Code> {
  override readonly name: string = 'RateLimitError';
}
/** 500 and 503: the service failed or is unavailable; quote `requestId`. */
export class ApiServerError<Code extends ApiErrorCode = ApiErrorCode> extends ApiError<Code> {
  override readonly name: string = 'ApiServerError';
}

/** The error types of the catalogue (`error.type`), each with its class; ApiError stays the base of all. */
export type ApiErrorType = 'invalid_request_error' | 'authentication_error' | 'billing_error' | 'permission_error' | 'not_found_error' | 'conflict_error' | 'rate_limit_error' | 'api_error';

const ERROR_CLASSES: Record<ApiErrorType, typeof ApiError> = {
  invalid_request_error: InvalidRequestError,
  authentication_error: AuthenticationError,
  billing_error: BillingError,
  permission_error: PermissionError,
  not_found_error: NotFoundError,
  conflict_error: ConflictError,
  rate_limit_error: RateLimitError,
  api_error: ApiServerError,
};

/** The request never got an answer: the connection failed or was cut (after the retries, if any). */
export class ApiConnectionError extends Error {
  override readonly name: string = 'ApiConnectionError';

  constructor(
    message: string,
    /** Requests sent: 1 plus the retries. */
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The last attempt took longer than `timeout` milliseconds. */
export class ApiTimeoutError extends ApiConnectionError {
  override readonly name = 'ApiTimeoutError';
}

/** Narrows an unknown caught value to an ApiError, optionally of one code. */
export function isApiError<Code extends ApiErrorCode = ApiErrorCode>(error: unknown, code?: Code): error is ApiError<Code> {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
