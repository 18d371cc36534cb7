import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { requestIdOf } from '../envelope/request-id';
import { ApiError } from '../errors/api-error';
import { renderError } from '../errors/error-response';
import { logWhenSent, RequestLogDetails } from './request-log';
import type { SecurityHeaders } from './security-headers';

/**
 * The first thing every request gets on either adapter, synchronously, before the request gate:
 * its id (X-Request-Id), helmet's headers and the log line written when it is answered.
 */
export function startExchange(
  request: IncomingMessage,
  response: ServerResponse,
  securityHeaders: SecurityHeaders,
  logger: Logger,
  details: RequestLogDetails,
  next: () => void,
): void {
  response.setHeader('X-Request-Id', requestIdOf(request));
  logWhenSent(logger, request, response, details);
  securityHeaders(request, response, () => next());
}

/** The error body and headers both adapters send for a catalogue error. */
export function errorReply(request: IncomingMessage, error: ApiError): { headers: Record<string, string>; body: ReturnType<typeof renderError> } {
  const requestId = requestIdOf(request);
  return { headers: { 'X-Request-Id': requestId, ...error.headers }, body: renderError(error, requestId) };
}
