import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';

const ROUTE_PATTERN = Symbol('routePattern');
type RawWithRoute = IncomingMessage & { [ROUTE_PATTERN]?: string };

/** Records the matched route pattern (`/v1/entitlements/:id`) on the Node request, for the request log line. */
export function recordRoutePattern(request: FastifyRequest): void {
  const pattern = request.routeOptions.url;
  if (pattern !== undefined) (request.raw as RawWithRoute)[ROUTE_PATTERN] = pattern;
}

export function routePatternOf(request: IncomingMessage): string | undefined {
  return (request as RawWithRoute)[ROUTE_PATTERN];
}
