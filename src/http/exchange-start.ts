import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { RequestObserver } from '../observability/request-observer';
import { requestIdOf } from '../envelope/request-id';
import { ApiError } from '../errors/api-error';
import { renderError } from '../errors/error-response';
import { logWhenSent, RequestLogDetails } from './request-log';
import type { SecurityHeaders } from './security-headers';
import { LICENSE_APP_PREFIX } from '../auth/request-authenticator';

/** What watches every request: the request log's logger and the metrics. */
export interface ExchangeObservers {
  logger: Logger;
  requests: RequestObserver;
}

/**
 * The first thing every request gets on either adapter, synchronously, before the request gate:
 * its id (X-Request-Id), helmet's headers, the log line written when it is answered and its
 * metrics (the one "request finished" place, so the direct routes are counted as routed ones).
 */
export function startExchange(
  request: IncomingMessage,
  response: ServerResponse,
  securityHeaders: SecurityHeaders,
  observers: ExchangeObservers,
  details: RequestLogDetails,
  next: () => void,
): void {
  const requestId = requestIdOf(request);
  response.setHeader('X-Request-Id', requestId);
  // The customer's app's license routes answer any origin, errors included (DESIGN §18); no other route does.
  if (request.url?.startsWith(LICENSE_APP_PREFIX)) response.setHeader('Access-Control-Allow-Origin', '*');
  const trace = observers.requests.observe(request, response, requestId, details.route);
  logWhenSent(observers.logger, request, response, details, trace?.ids ?? null);
  if (trace === null) securityHeaders(request, response, () => next());
  // Traced: everything the request starts (statements, its handler) runs in its span.
  else trace.run(() => securityHeaders(request, response, () => next()));
}

/** The error body and headers both adapters send for a catalogue error. */
export function errorReply(request: IncomingMessage, error: ApiError): { headers: Record<string, string>; body: ReturnType<typeof renderError> } {
  const requestId = requestIdOf(request);
  return { headers: { 'X-Request-Id': requestId, ...error.headers }, body: renderError(error, requestId) };
}
