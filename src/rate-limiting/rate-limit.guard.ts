import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerRequest } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import type { AuthenticatedRequest } from '../auth/auth-context';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

export const READ_THROTTLER = 'read';
export const WRITE_THROTTLER = 'write';
const READ_METHODS = new Set(['GET', 'HEAD']);

export function isReadRequest(context: ExecutionContext): boolean {
  return READ_METHODS.has(context.switchToHttp().getRequest<AuthenticatedRequest>().method);
}

/**
 * Third global guard: one budget per API key for reads (GET/HEAD) and one for writes, shared
 * across every route and, with Redis, every instance. Sets X-RateLimit-* on every authenticated
 * response and answers 429 RATE_LIMITED with Retry-After in whole seconds.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected async shouldSkip(context: ExecutionContext): Promise<boolean> {
    // Public and admin routes carry no API key.
    return !context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
  }

  protected async getTracker(request: Record<string, unknown>): Promise<string> {
    const auth = (request as unknown as AuthenticatedRequest).auth;
    if (!auth) throw new Error('RateLimitGuard ran before authentication');
    return auth.apiKeyId;
  }

  protected generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    // Per key across all routes, not per route as the library's default.
    return `rate:${throttlerName}:${tracker}`;
  }

  protected async handleRequest(requestProps: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, getTracker, generateKey } = requestProps;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const response = context.switchToHttp().getResponse<FastifyReply>();
    const tracker = await getTracker(request, context);
    const key = generateKey(context, tracker, throttler.name ?? 'default');
    const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = await this.storageService.increment(
      key,
      ttl,
      limit,
      blockDuration,
      throttler.name ?? 'default',
    );
    const resetSeconds = Math.max(1, Math.ceil(isBlocked ? timeToBlockExpire : timeToExpire));
    response.header('X-RateLimit-Limit', String(limit));
    response.header('X-RateLimit-Remaining', String(Math.max(0, limit - totalHits)));
    response.header('X-RateLimit-Reset', String(resetSeconds));
    if (isBlocked) {
      throw new ApiError(
        ErrorCode.RATE_LIMITED,
        `Rate limit of ${limit} ${throttler.name} requests a minute reached for this API key; retry in ${resetSeconds} s`,
        undefined,
        { 'Retry-After': String(resetSeconds) },
      );
    }
    return true;
  }
}
