import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { canonicalLicenseKey, CROCKFORD_ALPHABET, displayedLicenseKey, LICENSE_KEY_RANDOM_LENGTH, randomCrockford } from './license-key-format';

/** The server_secrets rows the cipher's keys are kept in (every instance reads the same). */
export const LICENSE_KEY_CHECKSUM_SECRET = 'license-key-checksum';
export const LICENSE_KEY_ENCRYPTION_SECRET = 'license-key-encryption';
const ENCRYPTION_VERSION = 'v1';
const IV_BYTES = 12;

/** A key as issued: what is shown (once in events, then decrypted on reads) and what is stored. */
export interface IssuedLicenseKey {
  displayed: string;
  hash: string;
  encrypted: string;
}

/** A typed key as the app routes see it before any lookup. */
export interface TypedLicenseKey {
  /** SHA-256 of the canonical form; null when it can't be a key. */
  hash: string | null;
  /** Whether it may be one this service made: well-formed and its keyed checksum holds. */
  plausible: boolean;
}

/**
 * The secrets of license keys (DESIGN §18, §13): a keyed checksum as the 25th character (so 31 of
 * 32 random keys are refused without a lookup, and nobody without the secret can make strings
 * that pass more often), SHA-256 for lookups, and AES-256-GCM for showing the key to the merchant.
 */
export class LicenseKeyCipher {
  constructor(
    private readonly checksumSecret: Buffer,
    private readonly encryptionKey: Buffer,
  ) {
    if (encryptionKey.length !== 32) throw new Error('The license key encryption key must be 32 bytes');
  }

  issue(): IssuedLicenseKey {
    const body = randomCrockford(LICENSE_KEY_RANDOM_LENGTH);
    const canonical = body + this.checksumOf(body);
    return { displayed: displayedLicenseKey(canonical), hash: hashLicenseKey(canonical), encrypted: this.encrypt(displayedLicenseKey(canonical)) };
  }

  read(typed: string): TypedLicenseKey {
    const canonical = canonicalLicenseKey(typed);
    if (canonical === null) return { hash: null, plausible: false };
    const expected = Buffer.from(this.checksumOf(canonical.slice(0, LICENSE_KEY_RANDOM_LENGTH)));
    return { hash: hashLicenseKey(canonical), plausible: timingSafeEqual(expected, Buffer.from(canonical.slice(LICENSE_KEY_RANDOM_LENGTH))) };
  }

  /** The displayed key of a stored ciphertext. */
  decrypt(stored: string): string {
    const [version, iv, tag, ciphertext] = stored.split(':');
    if (version !== ENCRYPTION_VERSION) throw new Error(`Unknown license key encryption ${version}`);
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
  }

  private encrypt(displayed: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const ciphertext = Buffer.concat([cipher.update(displayed, 'utf8'), cipher.final()]);
    return [ENCRYPTION_VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
  }

  private checksumOf(body: string): string {
    return CROCKFORD_ALPHABET[createHmac('sha256', this.checksumSecret).update(body).digest()[0] % CROCKFORD_ALPHABET.length];
  }
}

export function hashLicenseKey(canonical: string): string {
  return createHash('sha256').update(canonical).digest('hex');
}
