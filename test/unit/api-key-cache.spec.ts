import { API_KEY_CACHE_TTL_MILLISECONDS, ApiKeyCache } from '../../src/auth/api-key-cache';

describe('ApiKeyCache', () => {
  let now: number;
  const clock = () => now;

  beforeEach(() => {
    now = 1_000_000;
  });

  it('keeps a lookup for the TTL and forgets it after, so revocation reaches every instance in time', () => {
    const cache = new ApiKeyCache<string | null>(2_000, clock);
    cache.set('hash', 'context');
    now += 1_999;
    expect(cache.get('hash')).toBe('context');
    now += 1;
    expect(cache.get('hash')).toBeUndefined();
  });

  it('caches negative lookups (null) distinctly from a miss (undefined)', () => {
    const cache = new ApiKeyCache<string | null>(2_000, clock);
    cache.set('unknown', null);
    expect(cache.get('unknown')).toBeNull();
    expect(cache.get('never-seen')).toBeUndefined();
  });

  it('deletes matching entries at once (revocation on this instance)', () => {
    const cache = new ApiKeyCache<{ apiKeyId: string } | null>(2_000, clock);
    cache.set('a', { apiKeyId: 'key_a' });
    cache.set('b', { apiKeyId: 'key_b' });
    cache.set('c', null);
    cache.deleteWhere((value) => value?.apiKeyId === 'key_a');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toEqual({ apiKeyId: 'key_b' });
    expect(cache.get('c')).toBeNull();
  });

  it('has a default TTL within the 5 s revocation promise', () => {
    expect(API_KEY_CACHE_TTL_MILLISECONDS).toBeGreaterThan(0);
    expect(API_KEY_CACHE_TTL_MILLISECONDS).toBeLessThanOrEqual(5_000);
    const cache = new ApiKeyCache<string>(undefined, clock);
    cache.set('hash', 'value');
    now += API_KEY_CACHE_TTL_MILLISECONDS;
    expect(cache.get('hash')).toBeUndefined();
  });

  it('stays bounded, dropping the oldest entry first', () => {
    const cache = new ApiKeyCache<number>(60_000, clock);
    for (let index = 0; index < 10_001; index += 1) cache.set(`hash_${index}`, index);
    expect(cache.get('hash_0')).toBeUndefined();
    expect(cache.get('hash_1')).toBe(1);
    expect(cache.get('hash_10000')).toBe(10_000);
  });
});
