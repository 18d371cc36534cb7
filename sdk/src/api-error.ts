import type { ErrorCode } from './generated/error-codes';

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

/** Thrown by every SDK method for a non-2xx answer; switch on `code` (a union of the catalogue's codes). */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    /** meta.request_id of the failed request (also its X-Request-Id): quote it when asking for support. */
    readonly requestId: string | null,
    /** The request field at fault, when there is one. */
    readonly param: string | null,
    readonly body: unknown,
  ) {
    super(message);
  }

  static fromResponse(response: Response, body: unknown): ApiError {
    const requestId = response.headers.get('x-request-id');
    if (isErrorBody(body)) {
      const { code, message, request_id: bodyRequestId, param } = body.error;
      return new ApiError(response.status, code, message, bodyRequestId ?? requestId, param ?? null, body);
    }
    return new ApiError(response.status, UNEXPECTED_RESPONSE, `Unexpected ${response.status} response without an API error body`, requestId, null, body);
  }
}

/** Narrows an unknown caught value to an ApiError, optionally of one code. */
export function isApiError(error: unknown, code?: ApiErrorCode): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
