import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { AuthContext } from '../auth/auth-context';
import { requestIdOf } from '../envelope/request-id';
import { pathOf } from '../exchange/request-path';
import type { TraceIds } from '../observability/tracing';

/** What the adapter knows only once the response is sent: the matched route template and the tenant; and the client. */
export interface RequestLogDetails {
  route(): string | undefined;
  auth(): AuthContext | undefined;
  /** The client's address as TRUST_PROXY lets it be told (the request gate's, client-address.ts). */
  clientAddress(): string;
}

/**
 * One line per request, when the response has been sent: request id, client address, merchant,
 * mode, route, status and duration (and trace_id, span_id when tracing is on). Only the path is logged (never headers or the query string), so keys and
 * signed-URL tokens can't end up in logs. Liveness probes are not logged.
 *
 * A listener on the Node response rather than pino-http middleware: no per-request child logger
 * and no AsyncLocalStorage (whose promise hooks cost every promise of every request).
 */
export function logWhenSent(logger: Logger, request: IncomingMessage, response: ServerResponse, details: RequestLogDetails, trace: TraceIds | null = null): void {
  const url = request.url ?? '/';
  if (url === '/health/live') return;
  const startedAt = performance.now();
  response.once('finish', () => {
    const status = response.statusCode;
    const level = status >= 500 ? 'error' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const auth = details.auth();
    const path = pathOf(url);
    const route = details.route();
    logger[level](
      {
        req: { id: requestIdOf(request), method: request.method, path, remoteAddress: details.clientAddress() },
        res: { status },
        responseTime: Math.round((performance.now() - startedAt) * 1000) / 1000,
        merchant_id: auth?.merchantId,
        mode: auth?.mode,
        route,
        // With tracing on, the line joins its trace.
        ...trace,
      },
      `${request.method} ${route ?? path} ${status}`,
    );
  });
}
