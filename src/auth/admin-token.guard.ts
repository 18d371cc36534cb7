import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { pathOf } from '../http/request-path';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { AuthFailureLimiter } from '../rate-limiting/auth-failure-limiter';
import { bearerToken } from './bearer-token';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Admin routes: off (404) unless ADMIN_TOKEN is set; the token is compared in constant time. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(
    private readonly config: AppConfig,
    private readonly failures: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const expected = this.config.adminToken;
    if (!expected) throw new ApiError(ErrorCode.NOT_FOUND, `No route ${request.method} ${pathOf(request.url)}`);
    const presented = bearerToken(request);
    // Hashing both sides gives equal lengths, which timingSafeEqual needs.
    if (presented !== null && timingSafeEqual(digest(presented), digest(expected))) return true;
    await this.failures.recordFailure(request);
    throw new ApiError(ErrorCode.INVALID_API_KEY, 'Invalid or missing admin token');
  }
}
