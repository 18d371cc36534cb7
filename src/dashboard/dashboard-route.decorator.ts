import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiCookieAuth, ApiExtension, ApiHeader, ApiTags } from '@nestjs/swagger';
import { insufficientScope } from '../auth/access.guard';
import { hasScope } from '../auth/auth-context';
import { scopesOfRole } from '../auth/roles';
import type { Scope, SessionScope } from '../auth/scopes';
import type { AuthenticatedRequest, DashboardSessionCredential } from '../auth/auth-context';
import { missingModeHeader, MODE_HEADER } from '../exchange/mode-header';
import { IS_DASHBOARD_ROUTE } from '../auth/route-access.decorators';
import { DASHBOARD_SESSION_SECURITY, DASHBOARD_TAG } from '../swagger/security-schemes';
import { API_MODES, Tenant } from '../database/tenant';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';

const NEEDS_MODE = 'dashboardRouteNeedsMode';
const SESSION_ROUTE_SCOPES = 'dashboardRouteScopes';

/**
 * A dashboard route that needs the session (401 INVALID_SESSION without one), the scopes it
 * declares among the session's role's (403 INSUFFICIENT_SCOPE, DESIGN §11) and, when the route
 * acts in a mode, the request's Eh-Mode header (400 without it; the request authenticator has
 * already refused a bad value), which must be test for a member limited to test mode (403).
 */
@Injectable()
export class DashboardSessionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (request.credential?.kind !== 'dashboard-session') throw new ApiError(ErrorCode.INVALID_SESSION, 'Sign in to the dashboard first');
    const needsMode = this.reflector.get<boolean | undefined>(NEEDS_MODE, context.getHandler()) === true;
    if (needsMode && !request.auth) throw missingModeHeader();
    const session = request.credential.session;
    const mode = needsMode && request.auth ? request.auth.mode : null;
    const held = { scopes: scopesOfRole(session.role, session.testOnly, mode) };
    const role = { name: session.role, testOnly: session.testOnly };
    if (mode === 'live' && session.testOnly) throw insufficientScope({ role, mode }, 'live mode');
    const required = this.reflector.get<ReadonlyArray<Scope | SessionScope> | undefined>(SESSION_ROUTE_SCOPES, context.getHandler()) ?? [];
    const missing = required.find((scope) => !hasScope(held, scope));
    if (missing !== undefined) throw insufficientScope({ role, mode: mode ?? 'test' }, missing);
    return true;
  }
}

/**
 * The dashboard app's own JSON routes under `/dashboard/api/`. The global AccessGuard lets them
 * through (their session guard decides). They are documented in the dashboard's own OpenAPI
 * document (openapi.dashboard.json, Swagger UI at /docs/dashboard), not the public one: they serve
 * this service's web app, not merchants' code, and change with it.
 */
export function DashboardRoute(): ClassDecorator {
  return applyDecorators(SetMetadata(IS_DASHBOARD_ROUTE, true), ApiTags(DASHBOARD_TAG));
}

/**
 * The one decorator of a route that needs the session: enforced by the guard, documented as the
 * cookie security scheme (the CSRF header of state-changing methods is added where the document
 * is built), with `mode: true` for routes that act in the mode of the page (Eh-Mode required) and
 * `scopes` the session's role must hold (src/auth/roles.ts).
 */
export function DashboardSession(options: { mode?: boolean; scopes?: ReadonlyArray<Scope | SessionScope> } = {}): MethodDecorator {
  const mode = options.mode === true;
  const scopes = options.scopes ?? [];
  return applyDecorators(
    SetMetadata(NEEDS_MODE, mode),
    SetMetadata(SESSION_ROUTE_SCOPES, scopes),
    ...(scopes.length > 0 || mode ? [ApiExtension('x-required-scopes', scopes), ApiErrorResponses(ErrorCode.INSUFFICIENT_SCOPE)] : []),
    UseGuards(DashboardSessionGuard),
    ApiCookieAuth(DASHBOARD_SESSION_SECURITY),
    ...(mode
      ? [
          ApiHeader({ name: MODE_HEADER, required: true, enum: [...API_MODES], description: 'The mode of the page that sends the request', example: 'test' }),
          ApiErrorResponses(ErrorCode.INVALID_SESSION, ErrorCode.RATE_LIMITED, ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER),
        ]
      : [ApiErrorResponses(ErrorCode.INVALID_SESSION, ErrorCode.RATE_LIMITED)]),
  );
}

/** The session of a request the guard let through. */
export function sessionOf(request: AuthenticatedRequest): DashboardSessionCredential {
  if (request.credential?.kind !== 'dashboard-session') throw new ApiError(ErrorCode.INVALID_SESSION, 'Sign in to the dashboard first');
  return request.credential.session;
}

/** The session of the request (routes under @DashboardSession). */
export const CurrentSession = createParamDecorator((_data: unknown, context: ExecutionContext): DashboardSessionCredential =>
  sessionOf(context.switchToHttp().getRequest<AuthenticatedRequest>()),
);

/** The merchant and the mode the request named (routes under @DashboardSession({ mode: true })). */
export const DashboardTenant = createParamDecorator((_data: unknown, context: ExecutionContext): Tenant => {
  const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
  if (!auth) throw missingModeHeader();
  return auth.tenant;
});
