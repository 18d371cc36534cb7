import { Injectable } from '@nestjs/common';
import type { ApiError } from '../errors/api-error';
import { Metrics } from '../observability/metrics';
import { AuthFailureLimiter, FailureKey } from '../rate-limiting/auth-failure-limiter';

/**
 * A long random credential (an API key, a session cookie) as far as it is known without the
 * database: a cached answer, and whether it may be valid at all.
 */
export interface SecretCredential<Found> {
  /** The credential from a cache, `null` when known not to be valid (malformed, or remembered as unknown), `undefined` when not cached. */
  cached: Found | null | undefined;
  /** Whether it may be valid: its keyed checksum holds, or it is one of the credentials made before checksums. */
  plausible: boolean;
  /** The database lookup (it remembers what it finds, unknown included). */
  lookUp(): Promise<Found | null>;
}

/**
 * What credential guessing may cost and who it may lock out (DESIGN §13). The only place these
 * rules live: every path that authenticates (the request gate, dashboard sign-in, any fast path)
 * asks here.
 */
@Injectable()
export class GuessingRules {
  constructor(
    private readonly failures: AuthFailureLimiter,
    private readonly metrics: Metrics,
  ) {}

  /**
   * API keys and session cookies: nobody guesses one, so a valid one is never refused because of
   * failures, its own address's included. While the client's address is over the limit, a
   * credential that isn't cached as valid is looked up only if it is plausible (its checksum
   * holds): a guess is answered 429 with no database lookup. Below the limit, an unknown one is a
   * failure (the caller's `refusal`, 401), and the failure that passes the limit is already 429.
   */
  async secret<Found>(clientAddress: string, credential: SecretCredential<Found>, refusal: () => ApiError): Promise<Found> {
    if (credential.cached) return credential.cached;
    const address: FailureKey = { subject: 'address', value: clientAddress };
    const blocked = await this.failures.blocked(address);
    if (credential.cached === undefined && (blocked === null || credential.plausible)) {
      const found = await credential.lookUp();
      if (found) return found;
    }
    // Already over: answered without counting (nothing more to learn, one write saved).
    if (blocked) throw this.rateLimited(blocked);
    return this.failed([address], refusal);
  }

  /**
   * Passwords and the admin token, which can be guessed: while any of `keys` (the address, the
   * email) is over the limit, the attempt is 429 right or wrong, decided before it is checked, so
   * no answer tells a right guess from a wrong one. A wrong one counts against every key.
   */
  async guessable<Result>(keys: FailureKey[], attempt: () => Promise<Result | null>, refusal: () => ApiError): Promise<Result> {
    for (const key of keys) {
      const blocked = await this.failures.blocked(key);
      if (blocked) throw this.rateLimited(blocked);
    }
    const result = await attempt();
    if (result !== null) return result;
    return this.failed(keys, refusal);
  }

  /** A wrong credential: counted against every key (and in auth_failures_total by the code answered); the 429 when one passed the limit. */
  private async failed(keys: FailureKey[], refusal: () => ApiError): Promise<never> {
    const refused = refusal();
    this.metrics.authFailure(refused.code.toLowerCase());
    const overLimit: (ApiError | null)[] = [];
    for (const key of keys) overLimit.push(await this.failures.recordFailure(key));
    const limited = overLimit.find((error) => error !== null);
    throw limited ? this.rateLimited(limited) : refused;
  }

  private rateLimited(error: ApiError): ApiError {
    this.metrics.rateLimited('auth_failures');
    return error;
  }
}
