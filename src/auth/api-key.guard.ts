import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import type { AuthenticatedRequest } from './auth-context';
import { IS_ADMIN_ROUTE, IS_DASHBOARD_ROUTE, IS_PUBLIC } from './route-access.decorators';

/**
 * First global guard: a route that is neither public nor admin needs the API key the request
 * gate authenticated (RequestAuthenticator, before the body was read). A route outside `/v1/`,
 * where the gate asks for no key, is therefore closed unless it says it is public.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    // Admin routes are authorised by AdminTokenGuard.
    if (this.reflector.getAllAndOverride<boolean>(IS_ADMIN_ROUTE, targets)) return true;
    // Dashboard routes are authorised by their session guard (src/dashboard/).
    if (this.reflector.getAllAndOverride<boolean>(IS_DASHBOARD_ROUTE, targets)) return true;
    if (!context.switchToHttp().getRequest<AuthenticatedRequest>().auth) {
      throw new ApiError(ErrorCode.INVALID_API_KEY, 'No API key: send it as Authorization: Bearer <API_KEY>');
    }
    return true;
  }
}
