import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Scope } from './scopes';
import type { ApiMode, Tenant } from './tenant';

/** What authentication attaches to a request. */
export interface AuthContext {
  apiKeyId: string;
  merchantId: string;
  mode: ApiMode;
  scopes: ReadonlySet<string>;
  tenant: Tenant;
}

export type AuthenticatedRequest = FastifyRequest & { auth?: AuthContext };

const AUTH = Symbol('auth');
type RawWithAuth = IncomingMessage & { [AUTH]?: AuthContext };

/** Attaches the tenant to the request, and to the Node request the request log line reads. */
export function attachAuth(request: AuthenticatedRequest, auth: AuthContext): void {
  request.auth = auth;
  (request.raw as RawWithAuth)[AUTH] = auth;
}

/** The tenant of a Node request, once authentication has run (the request log line). */
export function authOfRawRequest(request: IncomingMessage): AuthContext | undefined {
  return (request as RawWithAuth)[AUTH];
}

export function hasScope(auth: AuthContext, scope: Scope): boolean {
  return auth.scopes.has('*') || auth.scopes.has(scope);
}
