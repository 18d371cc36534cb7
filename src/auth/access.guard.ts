import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import type { HttpResponse } from '../exchange/http-exchange';
import { HeaderSink, RateLimiter } from '../rate-limiting/rate-limiter';
import { AuthContext, AuthenticatedRequest, hasScope } from './auth-context';
import { IS_ADMIN_ROUTE, IS_DASHBOARD_ROUTE, IS_PUBLIC, REQUIRED_SCOPES } from './route-access.decorators';
import type { Scope } from './scopes';

/**
 * What a route asks of its caller. `open`: public routes, admin routes (AdminTokenGuard decides)
 * and dashboard routes (their session guard decides); every other route needs an API key holding
 * its scopes, and one that declares none is closed (deny by default).
 */
export type RouteAccess = { kind: 'open' } | { kind: 'api-key'; scopes: readonly Scope[] };

/**
 * The one global guard: authentication, scope, then the credential's rate limit, in that order.
 * One guard rather than three because each global guard is a separate step of Nest's pipeline
 * on every request, the access check included; and a route's access is read from its decorators
 * once, not on every request.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly routes = new WeakMap<object, RouteAccess>();

  constructor(
    private readonly reflector: Reflector,
    private readonly rateLimiter: RateLimiter,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const response = http.getResponse<HttpResponse>();
    const setHeader: HeaderSink = (name, value) => response.header(name, value);
    const admitted = this.admit(this.accessOf(context), request.auth, request.method, setHeader);
    // A dashboard session's own routes may name no mode (then there is no auth): its budget still counts.
    const session = request.auth === undefined && request.credential?.kind === 'dashboard-session' ? request.credential.session : null;
    if (!session) return admitted;
    return Promise.resolve(admitted).then(() => this.rateLimiter.count({ credentialId: session.sessionId }, request.method, setHeader).then(() => true));
  }

  /**
   * The guard's decision for one request, given the route's access: throws the refusal, else
   * resolves once the request is counted against its credential's budget (headers to `setHeader`).
   * Direct routes (src/http/direct-router.ts) ask it too, so both paths decide alike.
   */
  admit(access: RouteAccess, auth: AuthContext | undefined, method: string, setHeader: HeaderSink): true | Promise<true> {
    if (access.kind === 'api-key') {
      // The request gate authenticated the key before the body was read (RequestAuthenticator).
      if (!auth) throw new ApiError(ErrorCode.INVALID_API_KEY, 'No API key: send it as Authorization: Bearer <API_KEY>');
      if (access.scopes.length === 0) throw new ApiError(ErrorCode.INSUFFICIENT_SCOPE, 'This route declares no scope and is closed');
      const missing = access.scopes.find((scope) => !hasScope(auth, scope));
      if (missing !== undefined) throw insufficientScope(auth, missing);
    }
    // Whatever authenticated the request (a key, a dashboard session) counts against its budget.
    if (!auth) return true;
    return this.rateLimiter.count(auth, method, setHeader).then(() => true);
  }

  /** The route's access, from its decorators (handler over class), read once per handler. */
  accessOf(context: ExecutionContext): RouteAccess {
    return this.accessOfHandler(context.getHandler(), context.getClass());
  }

  accessOfHandler(handler: object, controller: object): RouteAccess {
    const known = this.routes.get(handler);
    if (known) return known;
    const targets = [handler, controller] as Array<() => unknown>;
    const open =
      this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) ||
      this.reflector.getAllAndOverride<boolean>(IS_ADMIN_ROUTE, targets) ||
      this.reflector.getAllAndOverride<boolean>(IS_DASHBOARD_ROUTE, targets);
    const access: RouteAccess = open
      ? { kind: 'open' }
      : { kind: 'api-key', scopes: this.reflector.getAllAndOverride<Scope[] | undefined>(REQUIRED_SCOPES, targets) ?? [] };
    this.routes.set(handler, access);
    return access;
  }
}

/** The 403 of a credential without the route's scope: a key's, or a dashboard role's (DESIGN §11). */
export function insufficientScope(auth: Pick<AuthContext, 'role' | 'mode'>, missing: string): ApiError {
  const role = auth.role;
  if (!role) return new ApiError(ErrorCode.INSUFFICIENT_SCOPE, `This API key lacks the scope '${missing}' that this route needs`);
  if (role.testOnly && auth.mode === 'live') return new ApiError(ErrorCode.INSUFFICIENT_SCOPE, `This dashboard user is limited to test mode; live mode needs the scope '${missing}' there`);
  return new ApiError(ErrorCode.INSUFFICIENT_SCOPE, `The dashboard role '${role.name}' lacks the scope '${missing}' that this route needs`);
}
