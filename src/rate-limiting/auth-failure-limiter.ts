import { Injectable } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { RATE_LIMIT_WINDOW_SECONDS } from './rate-limit-window';
import { FailureCounter, FailureWindow, MemoryFailureCounter, RedisFailureCounter } from './auth-failure-counter';
import { RedisClient } from './redis-client';

const WINDOW_MILLISECONDS = RATE_LIMIT_WINDOW_SECONDS * 1000;
/** An IPv6 client holds a whole /64 (one subnet, 2^64 addresses): failures count per /64, or one client could count as many. */
const IPV6_COUNTING_PREFIX = 64;

/** What failures are counted against: the client's address, or the email a dashboard sign-in names. */
export type FailureSubject = 'address' | 'email';

/** One counter failures go to: `{ subject: 'address', value: client address }` or an email. */
export interface FailureKey {
  subject: FailureSubject;
  value: string;
}

/** The counter an address's failures go to: the address, or its /64 for IPv6. */
export function addressCountingKey(address: string): string {
  if (!ipaddr.IPv6.isValid(address) || ipaddr.IPv4.isValidFourPartDecimal(address)) return address || 'unknown';
  const parsed = ipaddr.IPv6.parse(address);
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/${IPV6_COUNTING_PREFIX}`);
  return `${network.toString()}/${IPV6_COUNTING_PREFIX}`;
}

/**
 * Counts failed authentications (Redis when configured, so every instance shares them) per client
 * address and per email, in one-minute windows. It only counts and answers "is it over the
 * limit"; what is refused because of it is decided in one place, GuessingRules.
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly counter: FailureCounter;
  readonly limit: number;

  constructor(config: AppConfig, redis: RedisClient) {
    this.counter = redis.client ? new RedisFailureCounter(redis.client) : new MemoryFailureCounter();
    this.limit = config.rateLimits.authFailuresPerMinute;
  }

  /** The 429 to answer while the key is over the limit, or null; reads the counter without counting. */
  async blocked(key: FailureKey): Promise<ApiError | null> {
    const window = await this.counter.read(this.counterOf(key));
    return window.count > this.limit ? this.refusal(window, key.subject) : null;
  }

  /** Counts a failure; returns the 429 when this failure passes the limit, else null. */
  async recordFailure(key: FailureKey): Promise<ApiError | null> {
    const window = await this.counter.increment(this.counterOf(key), WINDOW_MILLISECONDS);
    return window.count > this.limit ? this.refusal(window, key.subject) : null;
  }

  /** An address keeps its historical key; an email (dashboard sign-in) gets its own, so an email spread over many addresses is still limited. */
  private counterOf(key: FailureKey): string {
    return key.subject === 'address' ? `auth-failure:${addressCountingKey(key.value)}` : `auth-failure:${key.subject}:${key.value}`;
  }

  private refusal(window: FailureWindow, subject: FailureSubject): ApiError {
    const retryAfter = Math.max(1, Math.ceil(window.millisecondsLeft / 1000));
    const from = subject === 'address' ? 'from this address' : 'for this email';
    return new ApiError(ErrorCode.RATE_LIMITED, `Too many failed authentications ${from}; retry in ${retryAfter} s`, undefined, {
      'Retry-After': String(retryAfter),
    });
  }
}
