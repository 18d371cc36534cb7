import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { AuthenticatedRequest, DashboardSessionCredential } from '../auth/auth-context';
import { IS_DASHBOARD_ROUTE } from '../auth/route-access.decorators';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

/** A dashboard route that needs the session: 401 INVALID_SESSION without one. */
@Injectable()
export class DashboardSessionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (request.credential?.kind !== 'dashboard-session') throw new ApiError(ErrorCode.INVALID_SESSION, 'Sign in to the dashboard first');
    return true;
  }
}

/**
 * The dashboard app's own JSON routes under `/dashboard/api/`. The global AccessGuard
 * lets them through (as admin routes); `session: true` routes need a dashboard session. They are
 * left out of the public OpenAPI document: they serve this service's web app, not merchants'
 * code, and may change with it (the app's /v1 calls use the generated client).
 */
export function DashboardRoute(): ClassDecorator {
  return applyDecorators(SetMetadata(IS_DASHBOARD_ROUTE, true), ApiExcludeController());
}

export const RequireDashboardSession = (): MethodDecorator & ClassDecorator => UseGuards(DashboardSessionGuard);

/** The session of a request the guard let through. */
export function sessionOf(request: AuthenticatedRequest): DashboardSessionCredential {
  if (request.credential?.kind !== 'dashboard-session') throw new ApiError(ErrorCode.INVALID_SESSION, 'Sign in to the dashboard first');
  return request.credential.session;
}
