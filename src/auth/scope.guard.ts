import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { AuthenticatedRequest, hasScope } from './auth-context';
import { IS_ADMIN_ROUTE, IS_DASHBOARD_ROUTE, IS_PUBLIC, REQUIRED_SCOPES } from './route-access.decorators';
import type { Scope } from './scopes';

/** Second global guard, deny by default: a route that declares no scope is refused unless public or admin. */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_ADMIN_ROUTE, targets)) return true;
    // Dashboard routes are authorised by their session guard (src/dashboard/).
    if (this.reflector.getAllAndOverride<boolean>(IS_DASHBOARD_ROUTE, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const required = this.reflector.getAllAndOverride<Scope[] | undefined>(REQUIRED_SCOPES, targets);
    if (!required || required.length === 0 || !request.auth) {
      throw new ApiError(ErrorCode.INSUFFICIENT_SCOPE, 'This route declares no scope and is closed');
    }
    const auth = request.auth;
    const missing = required.find((scope) => !hasScope(auth, scope));
    if (missing !== undefined) {
      throw new ApiError(ErrorCode.INSUFFICIENT_SCOPE, `This API key lacks the scope '${missing}' that this route needs`);
    }
    return true;
  }
}
