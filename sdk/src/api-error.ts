import type { ErrorCode } from './generated/error-codes';
import type { RateLimit, ResponseInfo } from './response-info';

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
  override readonly name = 'ApiError';
  /** The error's `type` (`invalid_request_error`, `not_found_error`…), or null for an unexpected body. */
  readonly type: string | null;
  /** meta.request_id of the failed request (also its X-Request-Id): quote it when asking for support. */
  readonly requestId: string | null;
  /** The request field at fault, when there is one. */
  readonly param: string | null;
  /** Seconds to wait before retrying, from Retry-After (429, 503), else null. */
  readonly retryAfter: number | null;
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
    this.rateLimit = info.rateLimit;
    this.lastResponse = info;
  }

  static from(info: ResponseInfo, body: unknown): ApiError {
    if (isErrorBody(body)) {
      const { code, message, type, request_id: requestId, param } = body.error;
      return new ApiError<ApiErrorCode>(info.status, code, message, info, body, { type, requestId: requestId ?? null, param: param ?? null });
    }
    const message = `Unexpected ${info.status} response without an API error body`;
    return new ApiError<ApiErrorCode>(info.status, UNEXPECTED_RESPONSE, message, info, body, { type: null, requestId: null, param: null });
  }
}

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
