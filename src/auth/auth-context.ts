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

export function hasScope(auth: AuthContext, scope: Scope): boolean {
  return auth.scopes.has('*') || auth.scopes.has(scope);
}
