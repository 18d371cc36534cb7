import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { RATE_LIMIT_WINDOW_SECONDS } from './rate-limit-window';
import { Metrics } from '../observability/metrics';

const READ_BUDGET = 'read' as const;
const WRITE_BUDGET = 'write' as const;
const READ_METHODS = new Set(['GET', 'HEAD']);
const WINDOW_MILLISECONDS = RATE_LIMIT_WINDOW_SECONDS * 1000;

/** Where the X-RateLimit-* headers go: the adapter's response, or the Node response of a direct route. */
export type HeaderSink = (name: string, value: string) => void;

/**
 * One budget per credential for reads (GET/HEAD) and one for writes, shared across every route
 * and, with Redis, every instance. Sets X-RateLimit-* on every authenticated response and refuses
 * with 429 RATE_LIMITED and Retry-After in whole seconds. Called by the global AccessGuard (and
 * so by direct routes too: src/http/direct-router.ts).
 *
 * It counts in @nestjs/throttler's storage (Redis or FixedWindowMemoryStorage) but not through
 * ThrottlerGuard, whose per-route overrides (six metadata lookups per throttler per request) this
 * API never uses; the check pays for every step here.
 */
@Injectable()
export class RateLimiter {
  private readonly readLimit: number;
  private readonly writeLimit: number;

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.readLimit = config.rateLimits.readPerMinute;
    this.writeLimit = config.rateLimits.writePerMinute;
  }

  /** Counts the request against its credential's budget; throws RATE_LIMITED once the budget is spent. */
  async count(auth: { credentialId: string }, method: string, setHeader: HeaderSink): Promise<void> {
    const read = READ_METHODS.has(method);
    const budget = read ? READ_BUDGET : WRITE_BUDGET;
    const limit = read ? this.readLimit : this.writeLimit;
    const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = await this.storage.increment(
      `rate:${budget}:${auth.credentialId}`,
      WINDOW_MILLISECONDS,
      limit,
      WINDOW_MILLISECONDS,
      budget,
    );
    const resetSeconds = Math.max(1, Math.ceil(isBlocked ? timeToBlockExpire : timeToExpire));
    setHeader('X-RateLimit-Limit', String(limit));
    setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - totalHits)));
    setHeader('X-RateLimit-Reset', String(resetSeconds));
    if (isBlocked) {
      this.metrics.rateLimited(budget);
      throw new ApiError(
        ErrorCode.RATE_LIMITED,
        `Rate limit of ${limit} ${budget} requests a minute reached for this API key; retry in ${resetSeconds} s`,
        undefined,
        { 'Retry-After': String(resetSeconds) },
      );
    }
  }
}
