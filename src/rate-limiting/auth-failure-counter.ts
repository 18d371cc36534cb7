import type Redis from 'ioredis';

/** Failures counted for one client address in its current window. */
export interface FailureWindow {
  count: number;
  /** Milliseconds until the window (and any block) ends; 0 when no window is open. */
  millisecondsLeft: number;
}

/**
 * Counts failed authentications per key in fixed windows. Reading does not count, so a blocked
 * address can be refused without touching anything else.
 */
export interface FailureCounter {
  read(key: string): Promise<FailureWindow>;
  increment(key: string, windowMilliseconds: number): Promise<FailureWindow>;
}

/** Bound on addresses remembered at once: a spray from many addresses can't grow memory without limit. */
const MAX_MEMORY_WINDOWS = 100_000;

/** One process's counters (REDIS_URL unset). */
export class MemoryFailureCounter implements FailureCounter {
  private readonly windows = new Map<string, { count: number; resetsAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  read(key: string): Promise<FailureWindow> {
    return Promise.resolve(this.windowOf(key, this.now()));
  }

  increment(key: string, windowMilliseconds: number): Promise<FailureWindow> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetsAt <= now) {
      if (window) this.windows.delete(key);
      if (this.windows.size >= MAX_MEMORY_WINDOWS) this.evict(now);
      window = { count: 0, resetsAt: now + windowMilliseconds };
      this.windows.set(key, window);
    }
    window.count += 1;
    return Promise.resolve({ count: window.count, millisecondsLeft: window.resetsAt - now });
  }

  private windowOf(key: string, now: number): FailureWindow {
    const window = this.windows.get(key);
    if (!window || window.resetsAt <= now) return { count: 0, millisecondsLeft: 0 };
    return { count: window.count, millisecondsLeft: window.resetsAt - now };
  }

  /** Drops ended windows, or else the oldest one (Map keeps insertion order). */
  private evict(now: number): void {
    for (const [key, window] of this.windows) if (window.resetsAt <= now) this.windows.delete(key);
    if (this.windows.size < MAX_MEMORY_WINDOWS) return;
    for (const oldest of this.windows.keys()) {
      this.windows.delete(oldest);
      return;
    }
  }
}

/** INCR with the window's expiry set by the first failure; one round trip. */
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

const READ_SCRIPT = `return {tonumber(redis.call('GET', KEYS[1]) or '0'), redis.call('PTTL', KEYS[1])}`;

/** Counters shared by every instance (REDIS_URL set). */
export class RedisFailureCounter implements FailureCounter {
  constructor(private readonly redis: Redis) {}

  async read(key: string): Promise<FailureWindow> {
    return this.window((await this.redis.eval(READ_SCRIPT, 1, key)) as [number, number]);
  }

  async increment(key: string, windowMilliseconds: number): Promise<FailureWindow> {
    return this.window((await this.redis.eval(INCREMENT_SCRIPT, 1, key, windowMilliseconds)) as [number, number]);
  }

  private window([count, millisecondsLeft]: [number, number]): FailureWindow {
    return millisecondsLeft > 0 ? { count, millisecondsLeft } : { count: 0, millisecondsLeft: 0 };
  }
}
