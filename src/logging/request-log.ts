import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AuthenticatedRequest } from '../auth/auth-context';
import { pathOf } from '../http/request-path';

/**
 * One line per request, when the response has been sent: request id, merchant, mode, route,
 * status and duration. Only the path is logged (never headers or the query string), so keys and
 * signed-URL tokens can't end up in logs. Liveness probes are not logged.
 *
 * A Fastify hook rather than pino-http middleware: no per-request child logger and no
 * AsyncLocalStorage (whose promise hooks cost every promise of every request).
 */
export function registerRequestLog(fastify: FastifyInstance, logger: Logger): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : 'info';
    if (request.url === '/health/live' || !logger.isLevelEnabled(level)) return done();
    const auth = (request as AuthenticatedRequest).auth;
    const path = pathOf(request.url);
    const route = request.routeOptions.url;
    logger[level](
      {
        req: { id: request.id, method: request.method, path },
        res: { status },
        responseTime: reply.elapsedTime,
        merchant_id: auth?.merchantId,
        mode: auth?.mode,
        route,
      },
      `${request.method} ${route ?? path} ${status}`,
    );
    done();
  });
}
