import type { HttpRequest } from '../exchange/http-exchange';
import type { AuditActor } from '../database/audit-trail';
import type { CredentialKind } from '../database/operation';
import type { Role } from './roles';
import { GRANTED_BY, type Scope, type SessionScope } from './scopes';
import type { ApiMode, Tenant } from '../database/tenant';

/** What authentication attaches to a request. */
export interface AuthContext {
  credential: CredentialKind;
  /** The API key's id, or the dashboard session's: rate limits count per credential. */
  credentialId: string;
  /** Who the audit log names for this request's writes: the key (by its prefix) or the session's user (by email). */
  actor: AuditActor;
  merchantId: string;
  mode: ApiMode;
  scopes: ReadonlySet<string>;
  tenant: Tenant;
  /** A dashboard session's role and whether it is limited to test mode (its scopes come from them). */
  role?: { name: Role; testOnly: boolean };
}

/** The credential the request gate accepted (request-authenticator.ts). */
export type RequestCredential =
  | { kind: 'none' }
  | { kind: 'api-key'; auth: AuthContext }
  /**
   * `auth` acts in the mode the request named (Eh-Mode): always there on /v1 (the header is
   * required), on the dashboard's own routes only when the request named one.
   */
  | { kind: 'dashboard-session'; auth: AuthContext | undefined; session: DashboardSessionCredential }
  /** A customer's portal session (DESIGN §19): `auth` holds no scope, only the tenant its rate limit counts in. */
  | { kind: 'portal-session'; auth: AuthContext; session: PortalSessionCredential }
  | { kind: 'admin' };

/** The portal session behind a request: one customer of one merchant in one mode, and nothing else. */
export interface PortalSessionCredential {
  sessionId: string;
  merchantId: string;
  mode: ApiMode;
  customerId: string;
  csrfToken: string;
  returnUrl: string | null;
}

/** The dashboard session behind a request (dashboard-only routes need its user and CSRF token). */
export interface DashboardSessionCredential {
  sessionId: string;
  merchantId: string;
  userId: string;
  email: string;
  csrfToken: string;
  /** Read with the session on every request, so a change applies at the next one on every instance. */
  role: Role;
  testOnly: boolean;
}

/** A request as the guards see it, after the request gate has authenticated it. */
export type AuthenticatedRequest = HttpRequest & { auth?: AuthContext; credential?: RequestCredential };

/** Whether the credential holds the scope: itself, a broader scope implying it (SCOPE_IMPLICATIONS), or `*`. */
export function hasScope(auth: Pick<AuthContext, 'scopes'>, scope: Scope | SessionScope): boolean {
  if (auth.scopes.has('*')) return true;
  const granting = GRANTED_BY.get(scope);
  return granting ? granting.some((candidate) => auth.scopes.has(candidate)) : auth.scopes.has(scope);
}
