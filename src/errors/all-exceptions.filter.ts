import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError } from './api-error';
import { ErrorCode } from './error-code.enum';
import { renderError } from './error-response';
import { requestIdOf } from '../envelope/request-id';

const CODE_BY_HTTP_STATUS: Record<number, ErrorCode> = {
  400: ErrorCode.INVALID_PARAMETER,
  401: ErrorCode.INVALID_API_KEY,
  403: ErrorCode.INSUFFICIENT_SCOPE,
  404: ErrorCode.NOT_FOUND,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  429: ErrorCode.RATE_LIMITED,
};

/** Turns anything thrown into a catalogue error; unexpected errors become a logged 500. */
export function toApiError(exception: unknown, request: Request, logger: Logger): ApiError {
  if (exception instanceof ApiError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = CODE_BY_HTTP_STATUS[status];
    if (code === ErrorCode.NOT_FOUND) {
      return new ApiError(code, `No route ${request.method} ${request.path}`);
    }
    if (code !== undefined) return new ApiError(code, exception.message);
  }
  const bodyParserError = exception as { type?: string } | null;
  if (bodyParserError?.type === 'entity.parse.failed') {
    return new ApiError(ErrorCode.INVALID_JSON, 'The request body is not valid JSON');
  }
  if (bodyParserError?.type === 'entity.too.large') {
    return new ApiError(ErrorCode.PAYLOAD_TOO_LARGE, 'The request body is larger than 1 MiB');
  }
  if (bodyParserError?.type === 'encoding.unsupported' || bodyParserError?.type === 'charset.unsupported') {
    return new ApiError(ErrorCode.INVALID_PARAMETER, 'The request body encoding is not supported');
  }
  logger.error(
    { err: exception, requestId: requestIdOf(request) },
    `Unhandled error on ${request.method} ${request.path}`,
  );
  return new ApiError(ErrorCode.INTERNAL_ERROR, 'An unexpected error occurred. Quote the request id when reporting it.');
}

export function sendApiError(response: Response, request: Request, error: ApiError): void {
  for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
  response.status(error.status).json(renderError(error, requestIdOf(request)));
}

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    if (response.headersSent) return;
    sendApiError(response, request, toApiError(exception, request, this.logger));
  }
}
