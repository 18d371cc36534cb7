import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { FailureCounter, FailureWindow, MemoryFailureCounter, RedisFailureCounter } from './auth-failure-counter';
import { RedisClient } from './redis-client';

const WINDOW_MILLISECONDS = 60_000;

/** What failures are counted against: the client's address, or the email a dashboard sign-in names. */
export type FailureSubject = 'address' | 'email';

/**
 * Failed authentications per client address (Redis when configured), so keys and the admin token
 * can't be guessed. Past AUTH_FAILURE_LIMIT_PER_MINUTE failures the address is blocked until its
 * window ends: every request from it that carries a credential is a 429, right or wrong, decided
 * before the credential is looked at (a correct answer among 429s would be an oracle).
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly counter: FailureCounter;
  private readonly limit: number;

  constructor(config: AppConfig, redis: RedisClient) {
    this.counter = redis.client ? new RedisFailureCounter(redis.client) : new MemoryFailureCounter();
    this.limit = config.rateLimits.authFailuresPerMinute;
  }

  /** 429 while the address is over the limit; reads the counter without counting. */
  async refuseWhileBlocked(clientAddress: string, subject: FailureSubject = 'address'): Promise<void> {
    const window = await this.counter.read(this.keyOf(clientAddress, subject));
    if (window.count > this.limit) throw this.blocked(window, subject);
  }

  /** Counts a failure; the one that passes the limit is already a 429. */
  async recordFailure(clientAddress: string, subject: FailureSubject = 'address'): Promise<void> {
    const window = await this.counter.increment(this.keyOf(clientAddress, subject), WINDOW_MILLISECONDS);
    if (window.count > this.limit) throw this.blocked(window, subject);
  }

  /** An address keeps its historical key; an email (dashboard sign-in) gets its own, so an email spread over many addresses is still limited. */
  private keyOf(value: string, subject: FailureSubject): string {
    return subject === 'address' ? `auth-failure:${value || 'unknown'}` : `auth-failure:${subject}:${value}`;
  }

  private blocked(window: FailureWindow, subject: FailureSubject): ApiError {
    const retryAfter = Math.max(1, Math.ceil(window.millisecondsLeft / 1000));
    const from = subject === 'address' ? 'from this address' : 'for this email';
    return new ApiError(ErrorCode.RATE_LIMITED, `Too many failed authentications ${from}; retry in ${retryAfter} s`, undefined, {
      'Retry-After': String(retryAfter),
    });
  }
}
