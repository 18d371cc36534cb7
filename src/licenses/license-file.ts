import { Injectable } from '@nestjs/common';
import { SignJWT } from 'jose';
import { AppConfig } from '../config/app-config';
import type { Tenant } from '../database/tenant';
import { EntitlementSigningKeys } from '../entitlements/tokens/entitlement-signing-keys';
import { entitlementTokenAudience } from '../entitlements/tokens/entitlement-token-claims';
import type { LicenseActivationEntity } from '../license-records/license-activation.entity';
import type { LicenseKeyEntity } from '../license-records/license-key.entity';

/** What a license file says (DESIGN §18): §12's token claims for a license, bound to one device. */
export interface LicenseFileClaims {
  /** The signing service: its PUBLIC_BASE_URL. */
  iss: string;
  /** `{merchant id}:{live|test}`, as entitlement tokens. */
  aud: string;
  /** The customer id. */
  sub: string;
  merchant: string;
  livemode: boolean;
  license_id: string;
  entitlement_id: string;
  product_id: string;
  store_product_id: string | null;
  activation_id: string;
  fingerprint: string;
  iat: number;
  exp: number;
}

/**
 * Signs license files with the entitlement tokens' key (same JWKS): an app verifies one offline,
 * pins `iss` and `aud`, and refuses it unless `fingerprint` is its own machine's. It lasts
 * ENTITLEMENT_TOKEN_TTL, never past the entitlement's expiry; a revoke reaches it when it expires.
 */
@Injectable()
export class LicenseFileSigner {
  constructor(
    private readonly keys: EntitlementSigningKeys,
    private readonly config: AppConfig,
  ) {}

  async sign(
    tenant: Tenant,
    license: LicenseKeyEntity,
    activation: LicenseActivationEntity,
    entitlement: { expiresAt: Date | null; now: Date },
    storeProductId: string | null,
  ): Promise<string> {
    const issuedAt = Math.floor(entitlement.now.getTime() / 1000);
    const ttlEnd = Math.floor((entitlement.now.getTime() + this.config.entitlementTokenTtlMilliseconds) / 1000);
    const entitlementEnd = entitlement.expiresAt === null ? Infinity : Math.floor(entitlement.expiresAt.getTime() / 1000);
    const claims: LicenseFileClaims = {
      iss: this.config.publicBaseUrl,
      aud: entitlementTokenAudience(tenant.merchantId, tenant.mode),
      sub: license.customer_id,
      merchant: tenant.merchantId,
      livemode: tenant.mode === 'live',
      license_id: license.id,
      entitlement_id: license.entitlement_id,
      product_id: license.product_id,
      store_product_id: storeProductId,
      activation_id: activation.id,
      fingerprint: activation.fingerprint,
      iat: issuedAt,
      exp: Math.min(ttlEnd, entitlementEnd),
    };
    const key = await this.keys.signingKey();
    return new SignJWT({ ...claims }).setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
  }
}
