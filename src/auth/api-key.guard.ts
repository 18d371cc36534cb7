import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { AuthFailureLimiter } from '../rate-limiting/auth-failure-limiter';
import { ApiKeysService } from './api-keys.service';
import type { AuthenticatedRequest } from './auth-context';
import { bearerToken } from './bearer-token';
import { IS_ADMIN_ROUTE, IS_PUBLIC } from './route-access.decorators';

/** First global guard: resolves the bearer API key into the request's tenant and scopes. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly failures: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    // Admin routes are authorised by AdminTokenGuard.
    if (this.reflector.getAllAndOverride<boolean>(IS_ADMIN_ROUTE, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(request);
    const auth = token === null ? null : await this.apiKeys.authenticate(token);
    if (!auth) {
      await this.failures.recordFailure(request);
      throw new ApiError(
        ErrorCode.INVALID_API_KEY,
        token === null
          ? 'No API key: send it as Authorization: Bearer <API_KEY>'
          : 'The API key is invalid or has been revoked',
      );
    }
    request.auth = auth;
    return true;
  }
}
