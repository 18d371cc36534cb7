import { ERROR_CATALOGUE, ErrorCode, errorTypeForStatus, ErrorType } from './error-code.enum';

/** The only exception services throw for an expected failure; the global filter renders it. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly renderedCode: string;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    /** Extra response headers, e.g. Retry-After on RATE_LIMITED. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    const entry = ERROR_CATALOGUE[code];
    this.status = entry.status;
    this.type = errorTypeForStatus(entry.status);
    this.renderedCode = entry.renderedCode;
  }
}
