import type Redis from 'ioredis';
import { MemoryFailureCounter, RedisFailureCounter } from '../../src/rate-limiting/auth-failure-counter';

const MAX_WINDOWS = 100_000;

describe('MemoryFailureCounter', () => {
  let now: number;
  const clock = () => now;

  beforeEach(() => {
    now = 1_000_000;
  });

  it('counts failures in a window opened by the first one, and reading does not count', async () => {
    const counter = new MemoryFailureCounter(clock);
    expect(await counter.read('a')).toEqual({ count: 0, millisecondsLeft: 0 });
    expect(await counter.increment('a', 60_000)).toEqual({ count: 1, millisecondsLeft: 60_000 });
    now += 10_000;
    expect(await counter.increment('a', 60_000)).toEqual({ count: 2, millisecondsLeft: 50_000 });
    for (let index = 0; index < 5; index += 1) expect(await counter.read('a')).toEqual({ count: 2, millisecondsLeft: 50_000 });
    expect(await counter.read('b')).toEqual({ count: 0, millisecondsLeft: 0 });
  });

  it('keeps the window a failure opened: later failures neither extend nor change its length', async () => {
    const counter = new MemoryFailureCounter(clock);
    await counter.increment('a', 60_000);
    now += 59_999;
    expect(await counter.increment('a', 5_000)).toEqual({ count: 2, millisecondsLeft: 1 });
    expect(await counter.read('a')).toEqual({ count: 2, millisecondsLeft: 1 });
  });

  it('starts from zero at the instant the window ends', async () => {
    const counter = new MemoryFailureCounter(clock);
    await counter.increment('a', 60_000);
    await counter.increment('a', 60_000);
    now += 60_000;
    expect(await counter.read('a')).toEqual({ count: 0, millisecondsLeft: 0 });
    expect(await counter.increment('a', 60_000)).toEqual({ count: 1, millisecondsLeft: 60_000 });
  });

  it('reads the real clock when given none', async () => {
    const counter = new MemoryFailureCounter();
    const window = await counter.increment('a', 60_000);
    expect(window.count).toBe(1);
    expect(window.millisecondsLeft).toBeGreaterThan(0);
    expect(window.millisecondsLeft).toBeLessThanOrEqual(60_000);
  });

  describe('bounded memory', () => {
    /** Opens `count` windows of `windowMilliseconds`, named `prefix-0`, `prefix-1`, … */
    async function fill(counter: MemoryFailureCounter, prefix: string, count: number, windowMilliseconds = 60_000): Promise<void> {
      for (let index = 0; index < count; index += 1) await counter.increment(`${prefix}-${index}`, windowMilliseconds);
    }

    it('when full, the oldest window makes room for the newest', async () => {
      const counter = new MemoryFailureCounter(clock);
      await fill(counter, 'address', MAX_WINDOWS + 1);
      expect(await counter.read('address-0')).toEqual({ count: 0, millisecondsLeft: 0 });
      expect((await counter.read('address-1')).count).toBe(1);
      expect((await counter.read(`address-${MAX_WINDOWS}`)).count).toBe(1);
    });

    it('below the bound, nothing is dropped', async () => {
      const counter = new MemoryFailureCounter(clock);
      await fill(counter, 'address', MAX_WINDOWS);
      expect((await counter.read('address-0')).count).toBe(1);
    });

    it('when full, drops the windows that have ended (at their instant) before any live one', async () => {
      const counter = new MemoryFailureCounter(clock);
      await counter.increment('live-first', 60_000);
      await counter.increment('ended', 1_000);
      await fill(counter, 'address', MAX_WINDOWS - 2);
      now += 1_000;
      await counter.increment('newest', 60_000);
      expect((await counter.read('live-first')).count).toBe(1);
      expect((await counter.read('newest')).count).toBe(1);
    });

    it('a window opened again counts as new: it is not the oldest one dropped', async () => {
      const counter = new MemoryFailureCounter(clock);
      await counter.increment('again', 1_000);
      await fill(counter, 'address', MAX_WINDOWS - 2);
      now += 1_000;
      await counter.increment('again', 60_000);
      await counter.increment('newest', 60_000);
      // Full now: one more drops the oldest live window, which is no longer 'again'.
      await counter.increment('one-more', 60_000);
      expect((await counter.read('again')).count).toBe(1);
      expect((await counter.read('address-0')).count).toBe(0);
      expect((await counter.read('address-1')).count).toBe(1);
    });
  });
});

describe('RedisFailureCounter', () => {
  /** Redis as far as the counter uses it: one EVAL per call, answered from `replies`. */
  function redisAnswering(...replies: [number, number][]) {
    const calls: unknown[][] = [];
    const redis = {
      eval: (...parameters: unknown[]) => {
        calls.push(parameters);
        return Promise.resolve(replies.shift());
      },
    };
    return { counter: new RedisFailureCounter(redis as unknown as Redis), calls };
  }

  it('counts with one script: INCR, the window set by the first failure (PEXPIRE), the time left (PTTL)', async () => {
    const { counter, calls } = redisAnswering([1, 60_000]);
    expect(await counter.increment('auth-failure:203.0.113.9', 60_000)).toEqual({ count: 1, millisecondsLeft: 60_000 });
    expect(calls).toHaveLength(1);
    const [script, keyCount, key, windowMilliseconds] = calls[0] as [string, number, string, number];
    expect([keyCount, key, windowMilliseconds]).toEqual([1, 'auth-failure:203.0.113.9', 60_000]);
    expect(script).toMatch(/redis\.call\('INCR', KEYS\[1\]\)/);
    expect(script).toMatch(/if count == 1 then redis\.call\('PEXPIRE', KEYS\[1\], ARGV\[1\]\) end/);
    expect(script).toMatch(/return \{count, redis\.call\('PTTL', KEYS\[1\]\)\}/);
  });

  it('reads with one script that does not count: GET (0 when absent) and PTTL', async () => {
    const { counter, calls } = redisAnswering([4, 1_500]);
    expect(await counter.read('auth-failure:203.0.113.9')).toEqual({ count: 4, millisecondsLeft: 1_500 });
    const [script, keyCount, key] = calls[0] as [string, number, string];
    expect([keyCount, key]).toEqual([1, 'auth-failure:203.0.113.9']);
    expect(script).toMatch(/tonumber\(redis\.call\('GET', KEYS\[1\]\) or '0'\)/);
    expect(script).toMatch(/redis\.call\('PTTL', KEYS\[1\]\)/);
    expect(script).not.toMatch(/INCR|PEXPIRE/);
  });

  it.each([
    ['an ended window (PTTL 0)', [3, 0]],
    ['a key without expiry (PTTL -1)', [3, -1]],
    ['no key (PTTL -2)', [0, -2]],
  ] as [string, [number, number]][])('reads %s as no window', async (_case, reply) => {
    const { counter } = redisAnswering(reply, reply);
    expect(await counter.read('k')).toEqual({ count: 0, millisecondsLeft: 0 });
    expect(await counter.increment('k', 60_000)).toEqual({ count: 0, millisecondsLeft: 0 });
  });

  it('keeps a window with a millisecond left', async () => {
    const { counter } = redisAnswering([7, 1]);
    expect(await counter.read('k')).toEqual({ count: 7, millisecondsLeft: 1 });
  });
});
