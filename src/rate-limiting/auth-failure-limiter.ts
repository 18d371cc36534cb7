import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

const WINDOW_MILLISECONDS = 60_000;

/**
 * Counts failed authentications per client address in the throttler's storage (Redis when
 * configured), so keys and the admin token can't be guessed: past the limit a failure is a 429.
 */
@Injectable()
export class AuthFailureLimiter {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly config: AppConfig,
  ) {}

  async recordFailure(request: FastifyRequest): Promise<void> {
    const address = request.ip || 'unknown';
    const limit = this.config.rateLimits.authFailuresPerMinute;
    const result = await this.storage.increment(`auth-failure:${address}`, WINDOW_MILLISECONDS, limit, WINDOW_MILLISECONDS, 'auth-failure');
    if (result.isBlocked) {
      const retryAfter = Math.max(1, Math.ceil(result.timeToBlockExpire));
      throw new ApiError(
        ErrorCode.RATE_LIMITED,
        `Too many failed authentications from this address; retry in ${retryAfter} s`,
        undefined,
        { 'Retry-After': String(retryAfter) },
      );
    }
  }
}
