/** How long an unknown key's hash is remembered, and how many at most (oldest dropped first). */
const REMEMBERED_MILLISECONDS = 60_000;
const MAX_REMEMBERED = 100_000;

/**
 * Hashes of well-formed keys that the database did not know (DESIGN §13: a spray costs the
 * database nothing): the same guess again is answered without a lookup for a minute. A key issued
 * by this instance is forgotten here at once; one issued elsewhere is a fresh 120-bit random
 * string nobody guessed before, so it can't be in here.
 */
export class UnknownLicenseKeys {
  private readonly remembered = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  has(hash: string): boolean {
    const until = this.remembered.get(hash);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.remembered.delete(hash);
    return false;
  }

  remember(hash: string): void {
    this.remembered.delete(hash);
    if (this.remembered.size >= MAX_REMEMBERED) {
      const oldest = this.remembered.keys().next();
      if (!oldest.done) this.remembered.delete(oldest.value);
    }
    this.remembered.set(hash, this.now() + REMEMBERED_MILLISECONDS);
  }

  forget(hash: string): void {
    this.remembered.delete(hash);
  }
}
