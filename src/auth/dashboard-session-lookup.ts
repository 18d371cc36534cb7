import type { IncomingHttpHeaders } from 'node:http';
import type { AuthContext, DashboardSessionCredential } from './auth-context';
import type { SecretCredential } from './guessing-rules';

/** A dashboard session found from its cookie: the context /v1 sees, and the session's details. */
export interface ResolvedDashboardSession {
  auth: AuthContext;
  session: DashboardSessionCredential;
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
  credential(token: string): SecretCredential<ResolvedDashboardSession>;
}

export const DASHBOARD_SESSION_LOOKUP = Symbol('DashboardSessionLookup');

/** Creates a dashboard user with a setup link; the demo seeder prints one beside the demo key. */
export interface DashboardUserInviter {
  create(merchantId: string, email: string): Promise<{ email: string; setup_url: string }>;
}

export const DASHBOARD_USER_INVITER = Symbol('DashboardUserInviter');
