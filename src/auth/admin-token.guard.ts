import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import type { AuthenticatedRequest } from './auth-context';

/**
 * Admin routes: the request gate has checked the admin token (RequestAuthenticator, under the
 * `/admin/` prefix); an admin route reached without it is refused.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.switchToHttp().getRequest<AuthenticatedRequest>().credential?.kind === 'admin') return true;
    throw new ApiError(ErrorCode.INVALID_API_KEY, 'Invalid or missing admin token');
  }
}
