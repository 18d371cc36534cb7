import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

export type SecurityHeaders = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * helmet's headers, built once (building per request costs). No upgrade-insecure-requests: it
 * would break Swagger UI's assets on a plain-HTTP deployment.
 */
export function createSecurityHeaders(): SecurityHeaders {
  return helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
}
