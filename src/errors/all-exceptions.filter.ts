import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestIdOf } from '../envelope/request-id';
import { pathOf } from '../http/request-path';
import { ApiError } from './api-error';
import { ErrorCode } from './error-code.enum';
import { renderError } from './error-response';

const CODE_BY_HTTP_STATUS: Record<number, ErrorCode> = {
  400: ErrorCode.INVALID_PARAMETER,
  401: ErrorCode.INVALID_API_KEY,
  403: ErrorCode.INSUFFICIENT_SCOPE,
  404: ErrorCode.NOT_FOUND,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  429: ErrorCode.RATE_LIMITED,
};

/** Fastify's own errors (body parsing, limits) that a client can cause, in the catalogue. */
const FASTIFY_ERRORS: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [ErrorCode.PAYLOAD_TOO_LARGE, 'The request body is larger than 1 MiB'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [ErrorCode.INVALID_PARAMETER, 'The Content-Length header does not match the body'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [ErrorCode.INVALID_PARAMETER, 'Bodies must be JSON: send Content-Type: application/json'],
  FST_ERR_CTP_INVALID_TYPE: [ErrorCode.INVALID_PARAMETER, 'The Content-Type header is not valid'],
  FST_ERR_BAD_URL: [ErrorCode.NOT_FOUND, 'No such resource: the URL is not valid'],
  FST_ERR_ASYNC_CONSTRAINT: [ErrorCode.NOT_FOUND, 'No such resource'],
};

/** Turns anything thrown into a catalogue error; unexpected errors become a logged 500. */
export function toApiError(exception: unknown, request: FastifyRequest, logger: Logger): ApiError {
  if (exception instanceof ApiError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = CODE_BY_HTTP_STATUS[status];
    if (code === ErrorCode.NOT_FOUND) {
      return new ApiError(code, `No route ${request.method} ${pathOf(request.url)}`);
    }
    if (code !== undefined) return new ApiError(code, exception.message);
  }
  const fastifyCode = (exception as { code?: unknown } | null)?.code;
  const known = typeof fastifyCode === 'string' ? FASTIFY_ERRORS[fastifyCode] : undefined;
  if (known) return new ApiError(known[0], known[1]);
  logger.error({ err: exception, requestId: requestIdOf(request) }, `Unhandled error on ${request.method} ${pathOf(request.url)}`);
  return new ApiError(ErrorCode.INTERNAL_ERROR, 'An unexpected error occurred. Quote the request id when reporting it.');
}

export function sendApiError(reply: FastifyReply, request: FastifyRequest, error: ApiError): void {
  // Also here: router errors are answered before the hook that sets it runs.
  reply.header('X-Request-Id', requestIdOf(request));
  reply.headers(error.headers);
  void reply.status(error.status).send(renderError(error, requestIdOf(request)));
}

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (reply.sent) return;
    sendApiError(reply, request, toApiError(exception, request, this.logger));
  }
}
