import { FixedWindowMemoryStorage } from '../../src/rate-limiting/fixed-window-memory.storage';

describe('FixedWindowMemoryStorage', () => {
  const start = 1_800_000_000_000;
  const ttl = 60_000;
  let storage: FixedWindowMemoryStorage;

  beforeEach(() => {
    storage = new FixedWindowMemoryStorage();
  });
  afterEach(() => storage.onApplicationShutdown());

  it('counts hits in a window that starts at the first hit and resets after the ttl', () => {
    expect(storage.incrementAt(start, 'k', ttl, 5, ttl)).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    expect(storage.incrementAt(start + 1_500, 'k', ttl, 5, ttl)).toEqual({ totalHits: 2, timeToExpire: 59, isBlocked: false, timeToBlockExpire: 0 });
    expect(storage.incrementAt(start + ttl, 'k', ttl, 5, ttl).totalHits).toBe(1);
  });

  it('keeps keys apart', () => {
    storage.incrementAt(start, 'a', ttl, 5, ttl);
    expect(storage.incrementAt(start, 'b', ttl, 5, ttl).totalHits).toBe(1);
  });

  it('blocks past the limit for the block duration, then starts a new window', () => {
    for (let hit = 1; hit <= 3; hit += 1) expect(storage.incrementAt(start, 'k', ttl, 3, 30_000).isBlocked).toBe(false);
    expect(storage.incrementAt(start + 1_000, 'k', ttl, 3, 30_000)).toEqual({ totalHits: 4, timeToExpire: 59, isBlocked: true, timeToBlockExpire: 30 });
    // Still blocked after the hit window resets: the block has its own duration.
    expect(storage.incrementAt(start + 20_000, 'k', ttl, 3, 30_000)).toMatchObject({ isBlocked: true, timeToBlockExpire: 11 });
    expect(storage.incrementAt(start + 31_000, 'k', ttl, 3, 30_000)).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('costs the same whatever the number of hits in the window (no per-hit state)', () => {
    for (let hit = 0; hit < 100_000; hit += 1) storage.incrementAt(start + Math.floor(hit / 2), 'k', ttl, 1_000_000, ttl);
    expect(storage.incrementAt(start + 59_000, 'k', ttl, 1_000_000, ttl).totalHits).toBe(100_001);
    expect(storage.size).toBe(1);
  });

  it('sweeps windows that have reset, but keeps blocked keys', () => {
    storage.incrementAt(start, 'idle', ttl, 5, ttl);
    storage.incrementAt(start, 'blocked', ttl, 0, 5 * ttl);
    storage.sweep(start + ttl);
    expect(storage.size).toBe(1);
    expect(storage.incrementAt(start + ttl, 'blocked', ttl, 0, 5 * ttl).isBlocked).toBe(true);
  });

  it('answers through the ThrottlerStorage interface with the throttler name in the key', async () => {
    await storage.increment('rate:read:key_1', ttl, 5, ttl, 'read');
    expect((await storage.increment('rate:read:key_1', ttl, 5, ttl, 'read')).totalHits).toBe(2);
    expect((await storage.increment('rate:read:key_1', ttl, 5, ttl, 'write')).totalHits).toBe(1);
  });
});
