import { createHmac, timingSafeEqual } from 'node:crypto';
import { loadServerSecret } from '../../config/server-secret';

export type LocalStorageMethod = 'PUT' | 'GET';

/** What a local-storage URL authorises: one method on one object until `expiresAt` (ms). */
export interface LocalStorageGrant {
  method: LocalStorageMethod;
  objectKey: string;
  expiresAt: number;
  contentType: string;
  /** PUT: the most bytes accepted (110% of the declared size). */
  maxBytes?: number;
  /** GET: the name sent in Content-Disposition. */
  fileName?: string;
}

export type TokenCheck = { valid: true; grant: LocalStorageGrant } | { valid: false; reason: 'invalid' | 'expired' };

/** LOCAL_STORAGE_SECRET, or a random secret generated once into DATA_DIR/secrets (kept across restarts). */
export function loadLocalStorageSecret(configured: string | undefined, dataDirectory: string): Buffer {
  return loadServerSecret(configured, dataDirectory, 'local-storage.key');
}

/** HMAC-SHA256 tokens of the local storage server: `base64url(grant).base64url(mac)`. */
export class LocalStorageSigner {
  constructor(private readonly secret: Buffer) {}

  sign(grant: LocalStorageGrant): string {
    const payload = Buffer.from(JSON.stringify(grant), 'utf8').toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** Constant-time check of the MAC, then of the grant's method, object and expiry. */
  verify(token: unknown, method: LocalStorageMethod, objectKey: string, now: Date): TokenCheck {
    if (typeof token !== 'string' || token.length > 4096) return { valid: false, reason: 'invalid' };
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) return { valid: false, reason: 'invalid' };
    const expected = this.mac(payload);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { valid: false, reason: 'invalid' };
    let grant: LocalStorageGrant;
    try {
      grant = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LocalStorageGrant;
    } catch {
      return { valid: false, reason: 'invalid' };
    }
    if (grant.method !== method || grant.objectKey !== objectKey) return { valid: false, reason: 'invalid' };
    if (typeof grant.expiresAt !== 'number' || now.getTime() >= grant.expiresAt) return { valid: false, reason: 'expired' };
    return { valid: true, grant };
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(payload).digest();
  }
}
