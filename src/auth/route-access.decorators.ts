import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '../errors/error-code.enum';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { AdminTokenGuard } from './admin-token.guard';
import type { Scope } from './scopes';
import { ADMIN_TOKEN_SECURITY, API_KEY_SECURITY } from '../swagger/security-schemes';

export const REQUIRED_SCOPES = 'requiredScopes';
export const IS_PUBLIC = 'isPublic';
export const IS_ADMIN_ROUTE = 'isAdminRoute';
/** The dashboard app's routes (/dashboard/api/): a session or none, decided by the route (src/dashboard/). */
export const IS_DASHBOARD_ROUTE = 'isDashboardRoute';

/**
 * The one way a route declares its scope: the global AccessGuard enforces it and Swagger shows it
 * (security, `x-required-scopes`, and the 401/403/429 responses every API-key route can return).
 */
export function RequireScopes(...scopes: [Scope, ...Scope[]]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(REQUIRED_SCOPES, scopes),
    ApiBearerAuth(API_KEY_SECURITY),
    ApiExtension('x-required-scopes', scopes),
    ApiErrorResponses(ErrorCode.INVALID_API_KEY, ErrorCode.INSUFFICIENT_SCOPE, ErrorCode.RATE_LIMITED),
  );
}

/** No API key needed (health checks, the local storage server); the guards let it through. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** Admin API route: authorised by ADMIN_TOKEN instead of an API key; 404 while ADMIN_TOKEN is unset. */
export function AdminRoute(): ClassDecorator & MethodDecorator {
  return applyDecorators(
    SetMetadata(IS_ADMIN_ROUTE, true),
    UseGuards(AdminTokenGuard),
    ApiTags('admin'),
    ApiBearerAuth(ADMIN_TOKEN_SECURITY),
    // 429: too many failed admin tokens from the client's address.
    ApiErrorResponses(ErrorCode.INVALID_API_KEY, ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED),
  );
}
