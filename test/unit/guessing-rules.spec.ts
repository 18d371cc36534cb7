import { GuessingRules, SecretCredential } from '../../src/auth/guessing-rules';
import type { AppConfig } from '../../src/config/app-config';
import { ApiError } from '../../src/errors/api-error';
import { ErrorCode } from '../../src/errors/error-code.enum';
import type { Metrics } from '../../src/observability/metrics';
import { AuthFailureLimiter, FailureKey } from '../../src/rate-limiting/auth-failure-limiter';
import type { RedisClient } from '../../src/rate-limiting/redis-client';

/** Failures allowed per key and minute: the third one is over. */
const LIMIT = 2;
const ADDRESS = '203.0.113.7';
const addressKey: FailureKey = { subject: 'address', value: ADDRESS };
const emailKey: FailureKey = { subject: 'email', value: 'owner@example.com' };

const invalidKey = () => new ApiError(ErrorCode.INVALID_API_KEY, 'The API key is invalid or has been revoked');
const wrongPassword = () => new ApiError(ErrorCode.INVALID_CREDENTIALS, 'Wrong email or password');

/** What the rules answered: the value, or the error's code (and Retry-After when it is a 429). */
async function outcome<Result>(promise: Promise<Result>): Promise<{ value: Result } | { code: string; retryAfter?: string }> {
  try {
    return { value: await promise };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return error.code === ErrorCode.RATE_LIMITED ? { code: error.code, retryAfter: error.headers['Retry-After'] } : { code: error.code };
  }
}

describe('GuessingRules (DESIGN §13: what credential guessing may cost)', () => {
  let limiter: AuthFailureLimiter;
  let metrics: { authFailure: jest.Mock; rateLimited: jest.Mock };
  let rules: GuessingRules;

  beforeEach(() => {
    limiter = new AuthFailureLimiter({ rateLimits: { authFailuresPerMinute: LIMIT } } as AppConfig, { client: null } as RedisClient);
    metrics = { authFailure: jest.fn(), rateLimited: jest.fn() };
    rules = new GuessingRules(limiter, metrics as unknown as Metrics);
  });

  /** Failures counted against the key so far, read back through the limiter (over the limit = blocked). */
  async function failUntilBlocked(key: FailureKey): Promise<void> {
    for (let index = 0; index <= LIMIT; index += 1) await limiter.recordFailure(key);
    expect(await limiter.blocked(key)).not.toBeNull();
  }

  describe('secret credentials (API keys, session cookies)', () => {
    function credential(options: Partial<SecretCredential<string>> & { found?: string | null }): SecretCredential<string> & { lookUp: jest.Mock } {
      const found = options.found === undefined ? null : options.found;
      return { cached: options.cached, plausible: options.plausible ?? false, lookUp: jest.fn(async () => found) };
    }

    it('answers a cached valid credential at once: no limiter read, no lookup, nothing counted', async () => {
      const blocked = jest.spyOn(limiter, 'blocked');
      const cached = credential({ cached: 'key-1' });
      expect(await outcome(rules.secret(ADDRESS, cached, invalidKey))).toEqual({ value: 'key-1' });
      expect(blocked).not.toHaveBeenCalled();
      expect(cached.lookUp).not.toHaveBeenCalled();
      expect(metrics.authFailure).not.toHaveBeenCalled();
    });

    it('never refuses a valid credential because of failures, its own address’s included', async () => {
      await failUntilBlocked(addressKey);
      expect(await outcome(rules.secret(ADDRESS, credential({ cached: 'key-1' }), invalidKey))).toEqual({ value: 'key-1' });
      // Not cached but plausible (its checksum holds): looked up and answered, blocked or not.
      const plausible = credential({ cached: undefined, plausible: true, found: 'key-2' });
      expect(await outcome(rules.secret(ADDRESS, plausible, invalidKey))).toEqual({ value: 'key-2' });
      expect(plausible.lookUp).toHaveBeenCalledTimes(1);
      expect(metrics.rateLimited).not.toHaveBeenCalled();
    });

    it('below the limit, looks up an uncached credential, plausible or not, and answers what it finds', async () => {
      for (const plausible of [false, true]) {
        const uncached = credential({ cached: undefined, plausible, found: `key-${plausible}` });
        expect(await outcome(rules.secret(ADDRESS, uncached, invalidKey))).toEqual({ value: `key-${plausible}` });
        expect(uncached.lookUp).toHaveBeenCalledTimes(1);
      }
      expect(await limiter.blocked(addressKey)).toBeNull();
      expect(metrics.authFailure).not.toHaveBeenCalled();
    });

    it('below the limit, an unknown credential is the caller’s refusal and counts one failure against the address', async () => {
      const record = jest.spyOn(limiter, 'recordFailure');
      const unknown = credential({ cached: undefined, plausible: true, found: null });
      expect(await outcome(rules.secret(ADDRESS, unknown, invalidKey))).toEqual({ code: 'INVALID_API_KEY' });
      expect(unknown.lookUp).toHaveBeenCalledTimes(1);
      expect(record.mock.calls).toEqual([[addressKey]]);
      expect(metrics.authFailure.mock.calls).toEqual([['invalid_api_key']]);
      expect(metrics.rateLimited).not.toHaveBeenCalled();
    });

    it('a credential cached as not valid is refused without a lookup, and counted', async () => {
      const record = jest.spyOn(limiter, 'recordFailure');
      const known = credential({ cached: null, plausible: true, found: 'never' });
      expect(await outcome(rules.secret(ADDRESS, known, invalidKey))).toEqual({ code: 'INVALID_API_KEY' });
      expect(known.lookUp).not.toHaveBeenCalled();
      expect(record).toHaveBeenCalledTimes(1);
    });

    it('the failure that passes the limit is already answered 429, with Retry-After', async () => {
      const answers = [];
      for (let attempt = 0; attempt <= LIMIT; attempt += 1) {
        answers.push(await outcome(rules.secret(ADDRESS, credential({ cached: undefined, plausible: true }), invalidKey)));
      }
      expect(answers).toEqual([{ code: 'INVALID_API_KEY' }, { code: 'INVALID_API_KEY' }, { code: 'RATE_LIMITED', retryAfter: '60' }]);
      expect(metrics.rateLimited.mock.calls).toEqual([['auth_failures']]);
      // Each wrong one was counted as a failure, the last too.
      expect(metrics.authFailure).toHaveBeenCalledTimes(LIMIT + 1);
    });

    it('over the limit, a guess (not plausible) is 429 with no lookup and is not counted again', async () => {
      await failUntilBlocked(addressKey);
      const record = jest.spyOn(limiter, 'recordFailure');
      const guess = credential({ cached: undefined, plausible: false, found: 'would-be-found' });
      expect(await outcome(rules.secret(ADDRESS, guess, invalidKey))).toEqual({ code: 'RATE_LIMITED', retryAfter: '60' });
      expect(guess.lookUp).not.toHaveBeenCalled();
      expect(record).not.toHaveBeenCalled();
      expect(metrics.authFailure).not.toHaveBeenCalled();
      expect(metrics.rateLimited.mock.calls).toEqual([['auth_failures']]);
    });

    it('over the limit, a plausible credential that is not found, or one cached as not valid, is 429 and not counted', async () => {
      await failUntilBlocked(addressKey);
      const record = jest.spyOn(limiter, 'recordFailure');
      const plausible = credential({ cached: undefined, plausible: true, found: null });
      expect(await outcome(rules.secret(ADDRESS, plausible, invalidKey))).toEqual({ code: 'RATE_LIMITED', retryAfter: '60' });
      expect(plausible.lookUp).toHaveBeenCalledTimes(1);
      const known = credential({ cached: null, plausible: true, found: 'never' });
      expect(await outcome(rules.secret(ADDRESS, known, invalidKey))).toEqual({ code: 'RATE_LIMITED', retryAfter: '60' });
      expect(known.lookUp).not.toHaveBeenCalled();
      expect(record).not.toHaveBeenCalled();
    });

    it('counts per address: another address is not limited by this one’s failures', async () => {
      await failUntilBlocked(addressKey);
      expect(await outcome(rules.secret('198.51.100.1', credential({ cached: undefined, plausible: false }), invalidKey))).toEqual({ code: 'INVALID_API_KEY' });
    });
  });

  describe('guessable credentials (passwords, the admin token)', () => {
    it('answers a right attempt and counts nothing', async () => {
      const record = jest.spyOn(limiter, 'recordFailure');
      const attempt = jest.fn(async () => 'user-1');
      expect(await outcome(rules.guessable([addressKey, emailKey], attempt, wrongPassword))).toEqual({ value: 'user-1' });
      expect(attempt).toHaveBeenCalledTimes(1);
      expect(record).not.toHaveBeenCalled();
      expect(metrics.authFailure).not.toHaveBeenCalled();
    });

    it('answers any result but null, falsy ones included', async () => {
      expect(await outcome(rules.guessable([addressKey], async () => 0, wrongPassword))).toEqual({ value: 0 });
      expect(await outcome(rules.guessable([addressKey], async () => '', wrongPassword))).toEqual({ value: '' });
      expect(await limiter.blocked(addressKey)).toBeNull();
    });

    it('a wrong attempt is the caller’s refusal and counts against every key', async () => {
      const record = jest.spyOn(limiter, 'recordFailure');
      expect(await outcome(rules.guessable([addressKey, emailKey], async () => null, wrongPassword))).toEqual({ code: 'INVALID_CREDENTIALS' });
      expect(record.mock.calls).toEqual([[addressKey], [emailKey]]);
      expect(metrics.authFailure.mock.calls).toEqual([['invalid_credentials']]);
    });

    it.each([
      ['the address', addressKey],
      ['the email (spread over many addresses)', emailKey],
    ])('while %s is over the limit, even a right attempt is 429, decided before it is checked', async (_name, blockedKey) => {
      await failUntilBlocked(blockedKey);
      const record = jest.spyOn(limiter, 'recordFailure');
      const attempt = jest.fn(async () => 'user-1');
      expect(await outcome(rules.guessable([addressKey, emailKey], attempt, wrongPassword))).toEqual({ code: 'RATE_LIMITED', retryAfter: '60' });
      expect(attempt).not.toHaveBeenCalled();
      expect(record).not.toHaveBeenCalled();
      expect(metrics.rateLimited.mock.calls).toEqual([['auth_failures']]);
    });

    it('the wrong attempt that passes the limit of one key is 429, and still counts against the others', async () => {
      for (let index = 0; index < LIMIT; index += 1) await limiter.recordFailure(emailKey);
      const record = jest.spyOn(limiter, 'recordFailure');
      expect(await outcome(rules.guessable([emailKey, addressKey], async () => null, wrongPassword))).toEqual({ code: 'RATE_LIMITED', retryAfter: '60' });
      expect(record.mock.calls).toEqual([[emailKey], [addressKey]]);
      expect(metrics.rateLimited.mock.calls).toEqual([['auth_failures']]);
      // The address was counted once: one more failure does not block it yet.
      expect(await limiter.blocked(addressKey)).toBeNull();
    });

    it('the refusal is the 429 of the first key over the limit when the last one passed it', async () => {
      for (let index = 0; index < LIMIT; index += 1) await limiter.recordFailure(addressKey);
      expect(await outcome(rules.guessable([emailKey, addressKey], async () => null, wrongPassword))).toEqual({ code: 'RATE_LIMITED', retryAfter: '60' });
    });
  });
});
