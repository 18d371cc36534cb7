import type { RequestAudit } from './request-audit';
import type { IncomingHttpHeaders } from 'node:http';
import type { ApiMode } from '../database/tenant';
import type { AuthContext, DashboardSessionCredential } from './auth-context';
import type { SecretCredential } from './guessing-rules';
import { scopesOfRole } from './roles';

/**
 * A session acts as a key with its role's scopes (none in live mode for a member limited to test
 * mode), in the mode its request names (DESIGN §11): the session itself holds no mode.
 */
export function dashboardSessionAuth(session: DashboardSessionCredential, mode: ApiMode): AuthContext {
  return {
    credential: 'dashboard-session',
    credentialId: session.sessionId,
    actor: { type: 'user', id: session.userId, label: session.email },
    merchantId: session.merchantId,
    mode,
    scopes: scopesOfRole(session.role, session.testOnly, mode),
    role: { name: session.role, testOnly: session.testOnly },
    tenant: { merchantId: session.merchantId, mode },
  };
}

/**
 * How the request authenticator reads dashboard session cookies. Implemented by the dashboard
 * module (which owns the sessions table), so auth needs no dependency on it; absent when the
 * dashboard module is not loaded (the CLI).
 */
export interface DashboardSessionLookup {
  /** The session token in the request's cookie (`__Host-` named when the request came over https), or null. */
  tokenFrom(headers: IncomingHttpHeaders, secure: boolean): string | null;
  /** The token as known before any lookup, and its lookup (a live session, or null: unknown, signed out, idle too long). */
  credential(token: string): SecretCredential<DashboardSessionCredential>;
}

export const DASHBOARD_SESSION_LOOKUP = Symbol('DashboardSessionLookup');

/** Creates a dashboard user with a setup link; the demo seeder prints one beside the demo key. */
export interface DashboardUserInviter {
  create(merchantId: string, email: string, options: Record<string, never>, audit: RequestAudit): Promise<{ email: string; setup_url: string }>;
}

export const DASHBOARD_USER_INVITER = Symbol('DashboardUserInviter');
