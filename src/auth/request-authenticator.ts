import { Inject, Injectable, Optional } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { ApiKeysService } from './api-keys.service';
import type { DashboardSessionCredential, RequestCredential } from './auth-context';
import { PORTAL_SESSION_LOOKUP, portalSessionAuth, PortalSessionLookup } from './portal-session-lookup';
import { bearerToken } from './bearer-token';
import { DASHBOARD_SESSION_LOOKUP, dashboardSessionAuth, DashboardSessionLookup } from './dashboard-session-lookup';
import { GuessingRules, SecretCredential } from './guessing-rules';
import { optionalModeHeader, requiredModeHeader } from '../exchange/mode-header';

/** What authentication may look at: nothing of the body, which is not read before it succeeds. */
export interface CredentialRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The client's address as TRUST_PROXY lets it be told (src/exchange/client-address.ts). */
  clientAddress: string;
  /** Whether the client reached us over https (the session cookie's name depends on it). */
  secure: boolean;
}

const NONE: RequestCredential = { kind: 'none' };
const API_PREFIX = '/v1/';
/** The customer's app's routes (DESIGN §18): the license key in the body is their only credential, checked by the route. */
export const LICENSE_APP_PREFIX = '/v1/licenses/';
const ADMIN_PREFIX = '/admin/';
const DASHBOARD_API_PREFIX = '/dashboard/api/';
/** The customer portal's JSON routes (DESIGN §19): the portal cookie and nothing else. */
export const PORTAL_API_PREFIX = '/portal/api/';
/** Methods that change nothing: the only ones a session may send without its CSRF token. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The one place a request's credential is resolved, by path prefix, before its body is read
 * (the request gate calls it from the adapter's earliest hook): `/v1/` needs an API key (but `/v1/licenses/`, the apps' routes, none),
 * `/admin/` the admin token, anything else none. A `/v1/` request without an Authorization header
 * but with a dashboard session cookie acts as that session (DESIGN §11: a key with every scope in
 * the mode its `Eh-Mode` header names, which is required); `/dashboard/api/` reads the session
 * (and `Eh-Mode`, if sent) when there is one, and its routes decide whether they need them. A session's state-changing request needs X-CSRF-Token. What failures
 * refuse, and what a guess may cost, is GuessingRules' to decide (DESIGN §13).
 */
@Injectable()
export class RequestAuthenticator {
  private readonly adminTokenDigest: Buffer | null;

  constructor(
    config: AppConfig,
    private readonly apiKeys: ApiKeysService,
    private readonly guessing: GuessingRules,
    @Optional() @Inject(DASHBOARD_SESSION_LOOKUP) private readonly sessions: DashboardSessionLookup | null = null,
    @Optional() @Inject(PORTAL_SESSION_LOOKUP) private readonly portalSessions: PortalSessionLookup | null = null,
  ) {
    this.adminTokenDigest = config.adminToken ? digest(config.adminToken) : null;
  }

  async authenticate(request: CredentialRequest): Promise<RequestCredential> {
    if (request.path.startsWith(LICENSE_APP_PREFIX)) return NONE;
    if (request.path.startsWith(API_PREFIX)) {
      const sessionToken = request.headers.authorization === undefined ? this.sessions?.tokenFrom(request.headers, request.secure) : null;
      return sessionToken ? this.session(request, sessionToken) : this.apiKey(request);
    }
    if (request.path.startsWith(ADMIN_PREFIX)) return this.adminToken(request);
    if (request.path.startsWith(DASHBOARD_API_PREFIX)) return this.optionalSession(request);
    if (request.path.startsWith(PORTAL_API_PREFIX)) return this.portalSession(request);
    return NONE;
  }

  /**
   * The portal's JSON routes: the portal cookie only (no key, no dashboard session counts here, and
   * the portal cookie counts nowhere else). No cookie: none, and the routes' guard refuses. An
   * unknown cookie is a failed authentication like any guess (DESIGN §13).
   */
  private async portalSession(request: CredentialRequest): Promise<RequestCredential> {
    const token = this.portalSessions?.tokenFrom(request.headers, request.secure);
    if (!token || !this.portalSessions) return NONE;
    const found = await this.guessing.secret(request.clientAddress, this.portalSessions.credential(token), () => new ApiError(ErrorCode.INVALID_SESSION, 'The portal session has ended; open a new portal link'));
    this.requireCsrfToken(request, found.csrfToken, 'A portal session');
    return { kind: 'portal-session', auth: portalSessionAuth(found), session: found };
  }

  /** A `/v1/` request from the dashboard: an unknown or ended session counts as a failed authentication. */
  private async session(request: CredentialRequest, token: string): Promise<RequestCredential> {
    const found = await this.guessing.secret(request.clientAddress, this.sessionCredential(token), () => new ApiError(ErrorCode.INVALID_SESSION, 'The dashboard session has ended; sign in again'));
    this.requireCsrfToken(request, found.csrfToken);
    return { kind: 'dashboard-session', auth: dashboardSessionAuth(found, requiredModeHeader(request.headers)), session: found };
  }

  /**
   * Dashboard-only routes: the session when the cookie names a live one, else none (sign-in and
   * password setup need none; the other routes refuse without it). An unknown cookie still counts
   * as a failure, and from an address over the limit it is a 429 like any guess.
   */
  private async optionalSession(request: CredentialRequest): Promise<RequestCredential> {
    const token = this.sessions?.tokenFrom(request.headers, request.secure);
    if (!token) return NONE;
    const unknown = new ApiError(ErrorCode.INVALID_SESSION, 'The dashboard session has ended; sign in again');
    try {
      const found = await this.guessing.secret(request.clientAddress, this.sessionCredential(token), () => unknown);
      this.requireCsrfToken(request, found.csrfToken);
      const mode = optionalModeHeader(request.headers);
      return { kind: 'dashboard-session', auth: mode === null ? undefined : dashboardSessionAuth(found, mode), session: found };
    } catch (error) {
      if (error === unknown) return NONE;
      throw error;
    }
  }

  private sessionCredential(token: string): SecretCredential<DashboardSessionCredential> {
    if (!this.sessions) return { cached: null, plausible: false, lookUp: () => Promise.resolve(null) };
    return this.sessions.credential(token);
  }

  /**
   * A cookie travels with cross-site requests too; the CSRF token does not (another site can't
   * read it), so a state-changing request proves it came from the dashboard by echoing it.
   */
  private requireCsrfToken(request: CredentialRequest, expected: string, who = 'A dashboard session'): void {
    if (SAFE_METHODS.has(request.method)) return;
    const sent = request.headers['x-csrf-token'];
    if (typeof sent !== 'string' || !timingSafeEqual(digest(sent), digest(expected))) {
      throw new ApiError(ErrorCode.CSRF_TOKEN_INVALID, `${who}'s state-changing request needs the X-CSRF-Token header with the session's token`);
    }
  }

  private async apiKey(request: CredentialRequest): Promise<RequestCredential> {
    const token = bearerToken(request.headers);
    if (token === null) throw new ApiError(ErrorCode.INVALID_API_KEY, 'No API key: send it as Authorization: Bearer <API_KEY>');
    const auth = await this.guessing.secret(request.clientAddress, this.apiKeys.credential(token), () => new ApiError(ErrorCode.INVALID_API_KEY, 'The API key is invalid or has been revoked'));
    this.apiKeys.recordUse(auth);
    return { kind: 'api-key', auth };
  }

  /** Admin routes: off (404, as if absent) unless ADMIN_TOKEN is set; compared in constant time, limited per address. */
  private async adminToken(request: CredentialRequest): Promise<RequestCredential> {
    const expected = this.adminTokenDigest;
    if (!expected) throw new ApiError(ErrorCode.NOT_FOUND, `No route ${request.method} ${request.path}`);
    const token = bearerToken(request.headers);
    const refusal = () => new ApiError(ErrorCode.INVALID_API_KEY, 'Invalid or missing admin token');
    if (token === null) throw refusal();
    return this.guessing.guessable(
      [{ subject: 'address', value: request.clientAddress }],
      // Hashing both sides gives equal lengths, which timingSafeEqual needs.
      () => Promise.resolve(timingSafeEqual(digest(token), expected) ? ({ kind: 'admin' } as const) : null),
      refusal,
    );
  }
}
