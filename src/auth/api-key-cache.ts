/** How long an instance trusts a cached key lookup; revocation reaches every instance within this (DESIGN: 5 s). */
export const API_KEY_CACHE_TTL_MILLISECONDS = 2_000;
/**
 * How long a key found in no row is remembered as unknown. Keys are 238 random bits, so an
 * unknown key only becomes valid if it was guessed before being issued; a longer TTL just keeps a
 * spray of repeated guesses off the database.
 */
export const UNKNOWN_API_KEY_TTL_MILLISECONDS = 30_000;
const DEFAULT_MAX_ENTRIES = 10_000;

interface CacheEntry<Value> {
  value: Value;
  expiresAt: number;
}

/**
 * A small bounded TTL map: the access check must not hit the database for the key on every
 * request, and a spray of random keys can't grow it past `maxEntries`.
 */
export class ApiKeyCache<Value> {
  private readonly entries = new Map<string, CacheEntry<Value>>();

  constructor(
    private readonly ttlMilliseconds = API_KEY_CACHE_TTL_MILLISECONDS,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(hash: string): Value | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.value;
  }

  set(hash: string, value: Value): void {
    if (!this.entries.has(hash) && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { value, expiresAt: this.now() + this.ttlMilliseconds });
  }

  deleteWhere(predicate: (value: Value) => boolean): void {
    for (const [hash, entry] of this.entries) if (predicate(entry.value)) this.entries.delete(hash);
  }
}
