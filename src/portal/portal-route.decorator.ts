import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { AuthenticatedRequest, PortalSessionCredential } from '../auth/auth-context';
import { Public } from '../auth/route-access.decorators';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

function portalSessionOf(request: AuthenticatedRequest): PortalSessionCredential {
  if (request.credential?.kind !== 'portal-session') throw new ApiError(ErrorCode.INVALID_SESSION, 'No portal session: open a new portal link');
  return request.credential.session;
}

/** The portal routes need the portal cookie's session (401 INVALID_SESSION without one); no key and no dashboard session counts. */
@Injectable()
export class PortalSessionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    portalSessionOf(context.switchToHttp().getRequest<AuthenticatedRequest>());
    return true;
  }
}

/**
 * The portal app's JSON routes (/portal/api/, DESIGN §19). Public to the global guard (no API
 * key), guarded by the portal session instead; the request authenticator has already checked the
 * CSRF token of a state-changing request. Outside the public OpenAPI document: only the portal
 * page calls them.
 */
export function PortalRoute(): ClassDecorator {
  return applyDecorators(Public(), UseGuards(PortalSessionGuard), ApiExcludeController());
}

/** The portal session of the request (routes under @PortalRoute). */
export const CurrentPortalSession = createParamDecorator((_data: unknown, context: ExecutionContext): PortalSessionCredential =>
  portalSessionOf(context.switchToHttp().getRequest<AuthenticatedRequest>()),
);
