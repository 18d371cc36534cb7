import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { HttpRequest } from '../exchange/http-exchange';
import { requestPathOf } from '../exchange/http-exchange';
import { requestIdOf } from '../envelope/request-id';
import { ApiError } from '../errors/api-error';
import { unknownRouteMessage } from '../errors/route-hints';
import { databaseUnavailableError, isDatabaseUnavailable } from '../errors/database-unavailable';
import { ErrorCode } from '../errors/error-code.enum';

/** What an error's log line and message may say about the request. */
export interface FailedRequest {
  method: string;
  path: string;
  requestId: string;
}

/** The adapter's way of answering an error (HttpPlatform.sendError). */
export interface ErrorReplier {
  sendError(request: unknown, response: unknown, error: ApiError): void;
}

/** Framework client errors, by the status they carry, in the catalogue; any other 4xx is a 400. */
const CODE_BY_HTTP_STATUS: Record<number, ErrorCode> = {
  400: ErrorCode.INVALID_PARAMETER,
  401: ErrorCode.INVALID_API_KEY,
  403: ErrorCode.INSUFFICIENT_SCOPE,
  404: ErrorCode.NOT_FOUND,
  405: ErrorCode.NOT_FOUND,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  429: ErrorCode.RATE_LIMITED,
};

/** Messages for the framework errors a client causes most, by code (Fastify) or type (http-errors). */
const KNOWN_CLIENT_ERRORS: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [ErrorCode.PAYLOAD_TOO_LARGE, 'The request body is larger than 1 MiB'],
  'entity.too.large': [ErrorCode.PAYLOAD_TOO_LARGE, 'The request body is larger than 1 MiB'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [ErrorCode.INVALID_PARAMETER, 'The Content-Length header does not match the body'],
  'request.size.invalid': [ErrorCode.INVALID_PARAMETER, 'The Content-Length header does not match the body'],
  'entity.parse.failed': [ErrorCode.INVALID_JSON, 'The request body is not valid JSON'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [ErrorCode.INVALID_PARAMETER, 'Bodies must be JSON: send Content-Type: application/json'],
  FST_ERR_BAD_URL: [ErrorCode.NOT_FOUND, 'No such resource: the path has a malformed percent-encoding'],
};

function clientStatusOf(exception: unknown): number | null {
  if (typeof exception !== 'object' || exception === null) return null;
  const { statusCode, status } = exception as { statusCode?: unknown; status?: unknown };
  const value = typeof statusCode === 'number' ? statusCode : status;
  return typeof value === 'number' && value >= 400 && value < 500 ? value : null;
}

/**
 * A framework's own client error (any Fastify FST_ERR_* or body-parser/http-errors error with a
 * 4xx status) as a catalogue error with its status (a 400 where the catalogue has none), never a 500.
 */
function frameworkClientError(exception: unknown): ApiError | null {
  const status = clientStatusOf(exception);
  if (status === null) return null;
  const { code, type } = exception as { code?: unknown; type?: unknown };
  const known = KNOWN_CLIENT_ERRORS[String(code)] ?? KNOWN_CLIENT_ERRORS[String(type)];
  if (known) return new ApiError(known[0], known[1]);
  const label = typeof code === 'string' ? code : typeof type === 'string' ? type : `HTTP ${status}`;
  return new ApiError(CODE_BY_HTTP_STATUS[status] ?? ErrorCode.INVALID_PARAMETER, `The request was refused (${label})`);
}

/**
 * Turns anything thrown into a catalogue error; an unexpected error becomes a logged 500.
 * Classifiers of other kinds of error (database connection failures as 503, say) belong in
 * ERROR_CLASSIFIERS, each returning its catalogue error or null.
 */
const ERROR_CLASSIFIERS: Array<(exception: unknown) => ApiError | null> = [frameworkClientError];

export function toApiError(exception: unknown, request: FailedRequest, logger: Logger): ApiError {
  if (exception instanceof ApiError) return exception;
  if (exception instanceof HttpException) {
    const code = CODE_BY_HTTP_STATUS[exception.getStatus()];
    if (code === ErrorCode.NOT_FOUND) return new ApiError(code, unknownRouteMessage(request.method, request.path));
    if (code !== undefined) return new ApiError(code, exception.message);
  }
  for (const classify of ERROR_CLASSIFIERS) {
    const classified = classify(exception);
    if (classified) return classified;
  }
  if (isDatabaseUnavailable(exception)) {
    // Retryable (503 with Retry-After) and expected while the database is away: a warning, not an error.
    logger.warn({ err: exception, requestId: request.requestId }, `Database unavailable on ${request.method} ${request.path}`);
    return databaseUnavailableError();
  }
  logger.error({ err: exception, requestId: request.requestId }, `Unhandled error on ${request.method} ${request.path}`);
  return new ApiError(ErrorCode.INTERNAL_ERROR, 'An unexpected error occurred. Quote the request id when reporting it.');
}

export function describeRequest(request: HttpRequest): FailedRequest {
  return { method: request.method, path: requestPathOf(request), requestId: requestIdOf(request) };
}

/** The global filter: every error after the request gate, rendered by the adapter in the catalogue's shape. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly replier: ErrorReplier) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<HttpRequest>();
    this.replier.sendError(request, http.getResponse<unknown>(), toApiError(exception, describeRequest(request), this.logger));
  }
}
