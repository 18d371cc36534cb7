import { randomBytes } from 'node:crypto';
import { API_KEY_SECRET_LENGTH, randomBase62 } from '../../src/auth/api-key-format';
import type { ApiMode } from '../../src/database/tenant';

/** A key an attacker would try: the reference's format, random, no valid checksum (the service's secret is not known). */
export function guessApiKey(mode: ApiMode): string {
  return `eh_${mode}_${randomBase62(API_KEY_SECRET_LENGTH)}`;
}

/** A session cookie value an attacker would try: as long as a real one, random. */
export function guessSessionToken(): string {
  return randomBytes(32).toString('base64url') + randomBase62(6);
}
