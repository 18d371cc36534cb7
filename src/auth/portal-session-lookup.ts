import type { IncomingHttpHeaders } from 'node:http';
import type { AuditActor } from '../database/audit-trail';
import type { AuthContext, PortalSessionCredential } from './auth-context';
import type { SecretCredential } from './guessing-rules';

/**
 * How the request authenticator reads portal session cookies. Implemented by the portal module
 * (which owns the portal_sessions table), so auth needs no dependency on it; absent when the
 * portal module is not loaded (the CLI).
 */
export interface PortalSessionLookup {
  /** The session token in the request's portal cookie (`__Host-` named under https), or null. */
  tokenFrom(headers: IncomingHttpHeaders, secure: boolean): string | null;
  /** The token as known before any lookup, and its lookup (an open session, or null: unknown, ended, idle too long). */
  credential(token: string): SecretCredential<PortalSessionCredential>;
}

export const PORTAL_SESSION_LOOKUP = Symbol('PortalSessionLookup');

/** Who acts through a portal session, in the audit log (DESIGN §11): the merchant's customer. */
export function portalActorOf(session: PortalSessionCredential): AuditActor {
  return { type: 'customer', id: session.customerId, label: session.customerId };
}

/**
 * A portal session's AuthContext: no scope at all (so no /v1 route would admit it even if one
 * were reached), only the tenant and the credential its rate limit counts against.
 */
export function portalSessionAuth(session: PortalSessionCredential): AuthContext {
  return {
    credential: 'portal-session',
    credentialId: session.sessionId,
    merchantId: session.merchantId,
    mode: session.mode,
    scopes: new Set<string>(),
    tenant: { merchantId: session.merchantId, mode: session.mode },
    actor: portalActorOf(session),
  };
}
