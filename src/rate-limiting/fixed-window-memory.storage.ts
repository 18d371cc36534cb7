import { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Window {
  hits: number;
  /** Epoch milliseconds at which the window's count resets. */
  resetsAt: number;
  /** Epoch milliseconds until which the key is blocked; 0 when it is not. */
  blockedUntil: number;
}

/**
 * In-memory counters when REDIS_URL is unset, with the same fixed-window algorithm as the Redis
 * storage (INCR with a TTL, a block key once past the limit), so both deployments count alike.
 * It replaces @nestjs/throttler's default storage, which keeps one timestamp per hit and filters
 * them all on every request: O(requests a minute) per request, which dominated the check's CPU
 * and memory under load. This is O(1) per request; expired windows are swept once a minute.
 */
export class FixedWindowMemoryStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly windows = new Map<string, Window>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(sweepIntervalMilliseconds = 60_000) {
    this.sweeper = setInterval(() => this.sweep(Date.now()), sweepIntervalMilliseconds);
    this.sweeper.unref();
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    return this.incrementAt(Date.now(), `${key}:${throttlerName}`, ttl, limit, blockDuration);
  }

  /** Synchronous core, with the time passed in (unit tests). */
  incrementAt(now: number, key: string, ttl: number, limit: number, blockDuration: number): ThrottlerStorageRecord {
    let window = this.windows.get(key);
    if (!window || window.resetsAt <= now) {
      window = { hits: 0, resetsAt: now + ttl, blockedUntil: window?.blockedUntil ?? 0 };
      this.windows.set(key, window);
    }
    window.hits += 1;
    if (window.blockedUntil === 0 && window.hits > limit) window.blockedUntil = now + blockDuration;
    if (window.blockedUntil !== 0 && window.blockedUntil <= now) {
      // The block is over: this request starts a new window, as the Redis script does.
      window.blockedUntil = 0;
      window.hits = 1;
      window.resetsAt = now + ttl;
    }
    const isBlocked = window.blockedUntil !== 0;
    return {
      totalHits: window.hits,
      timeToExpire: Math.ceil((window.resetsAt - now) / 1000),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil((window.blockedUntil - now) / 1000) : 0,
    };
  }

  /** Forgets windows that have reset and are not blocked (they would start from zero anyway). */
  sweep(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.resetsAt <= now && window.blockedUntil <= now) this.windows.delete(key);
    }
  }

  get size(): number {
    return this.windows.size;
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }
}
