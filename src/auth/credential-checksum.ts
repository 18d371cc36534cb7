import { createHmac, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 62^6 ≈ 5.7e10: a random string passes one time in 2^35. */
export const CHECKSUM_LENGTH = 6;
const CHECKSUM_SPACE = 62n ** BigInt(CHECKSUM_LENGTH);

/**
 * A keyed checksum at the end of every new API key and session token (DESIGN §13): it tells a
 * credential this service made from a guessed one without the database, so a blocked address's
 * guesses cost no lookup. Keyed (HMAC with a secret every instance reads from server_secrets), so
 * an attacker can't make strings that pass; a key made by any instance passes on every other.
 */
export class CredentialChecksum {
  constructor(private readonly secret: Buffer) {}

  /** The checksum of `body`, in base62. */
  of(body: string): string {
    const digest = createHmac('sha256', this.secret).update(body).digest();
    let value = digest.readBigUInt64BE(0) % CHECKSUM_SPACE;
    let text = '';
    for (let index = 0; index < CHECKSUM_LENGTH; index += 1) {
      text = BASE62[Number(value % 62n)] + text;
      value /= 62n;
    }
    return text;
  }

  /** `body` followed by its checksum. */
  seal(body: string): string {
    return body + this.of(body);
  }

  /** Whether the credential ends with the checksum of what precedes it. */
  holds(credential: string): boolean {
    if (credential.length <= CHECKSUM_LENGTH) return false;
    const body = credential.slice(0, -CHECKSUM_LENGTH);
    const expected = Buffer.from(this.of(body));
    const given = Buffer.from(credential.slice(-CHECKSUM_LENGTH));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** The server_secrets row the checksum's key is kept in. */
export const CREDENTIAL_CHECKSUM_SECRET = 'credential-checksum';
