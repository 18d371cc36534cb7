import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiCookieAuth, ApiHeader, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedRequest, DashboardSessionCredential } from '../auth/auth-context';
import { missingModeHeader, MODE_HEADER } from '../exchange/mode-header';
import { IS_DASHBOARD_ROUTE } from '../auth/route-access.decorators';
import { DASHBOARD_SESSION_SECURITY, DASHBOARD_TAG } from '../swagger/security-schemes';
import { API_MODES, Tenant } from '../database/tenant';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';

const NEEDS_MODE = 'dashboardRouteNeedsMode';

/**
 * A dashboard route that needs the session (401 INVALID_SESSION without one) and, when the route
 * acts in a mode, the request's Eh-Mode header (400 without it; the request authenticator has
 * already refused a bad value).
 */
@Injectable()
export class DashboardSessionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (request.credential?.kind !== 'dashboard-session') throw new ApiError(ErrorCode.INVALID_SESSION, 'Sign in to the dashboard first');
    if (this.reflector.get<boolean | undefined>(NEEDS_MODE, context.getHandler()) && !request.auth) throw missingModeHeader();
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
 * is built), with `mode: true` for routes that act in the mode of the page (Eh-Mode required).
 */
export function DashboardSession(options: { mode?: boolean } = {}): MethodDecorator {
  const mode = options.mode === true;
  return applyDecorators(
    SetMetadata(NEEDS_MODE, mode),
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
