import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import type { AuthenticatedRequest } from '../auth/auth-context';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { HttpResponse, setResponseHeaders } from '../http/http-exchange';

export const READ_THROTTLER = 'read';
export const WRITE_THROTTLER = 'write';
const READ_METHODS = new Set(['GET', 'HEAD']);
const WINDOW_MILLISECONDS = 60_000;

/**
 * Third global guard: one budget per API key for reads (GET/HEAD) and one for writes, shared
 * across every route and, with Redis, every instance. Sets X-RateLimit-* on every authenticated
 * response and answers 429 RATE_LIMITED with Retry-After in whole seconds.
 *
 * It counts in @nestjs/throttler's storage (Redis or FixedWindowMemoryStorage) but not through
 * ThrottlerGuard, whose per-route overrides (six metadata lookups per throttler per request) this
 * API never uses; the check pays for every step here.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly readLimit: number;
  private readonly writeLimit: number;

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    config: AppConfig,
  ) {
    this.readLimit = config.rateLimits.readPerMinute;
    this.writeLimit = config.rateLimits.writePerMinute;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    // Public and admin routes carry no API key.
    if (!request.auth) return true;
    const read = READ_METHODS.has(request.method);
    const budget = read ? READ_THROTTLER : WRITE_THROTTLER;
    const limit = read ? this.readLimit : this.writeLimit;
    const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = await this.storage.increment(
      `rate:${budget}:${request.auth.credentialId}`,
      WINDOW_MILLISECONDS,
      limit,
      WINDOW_MILLISECONDS,
      budget,
    );
    const resetSeconds = Math.max(1, Math.ceil(isBlocked ? timeToBlockExpire : timeToExpire));
    setResponseHeaders(http.getResponse<HttpResponse>(), {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - totalHits)),
      'X-RateLimit-Reset': String(resetSeconds),
    });
    if (isBlocked) {
      throw new ApiError(
        ErrorCode.RATE_LIMITED,
        `Rate limit of ${limit} ${budget} requests a minute reached for this API key; retry in ${resetSeconds} s`,
        undefined,
        { 'Retry-After': String(resetSeconds) },
      );
    }
    return true;
  }
}
