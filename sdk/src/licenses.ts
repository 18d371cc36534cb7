import { jwtVerify } from 'jose';
import { failureOf, issuerOf, keySetOf, TokenVerificationError, type VerifyEntitlementTokenOptions } from './tokens';

/** What a verified license file says (DESIGN §18): who it is for, which license, and which machine. */
export interface LicenseFileClaims {
  /** The signing service: its PUBLIC_BASE_URL. */
  iss: string;
  /** `{merchant id}:{live|test}`. */
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
  /** The fingerprint the device activated with: the file is for that machine only. */
  fingerprint: string;
  iat: number;
  exp: number;
}

export interface VerifyLicenseFileOptions extends Pick<VerifyEntitlementTokenOptions, 'jwks' | 'merchant' | 'mode' | 'issuer' | 'clockTolerance' | 'currentDate'> {
  /** This machine's fingerprint, computed as the app computed it to activate: a file for another machine fails (`WRONG_MACHINE`). */
  fingerprint: string;
  /** When given, the file must license this product (id or store id). */
  productId?: string;
  storeProductId?: string;
}

/**
 * Verifies a license file (the `license_file` of `licenses.activate`) offline, once the service's
 * keys are known (a JWKS object works with no network at all): an EdDSA signature by one of its
 * keys, not expired, issued by the service for your merchant and mode, for this machine's
 * fingerprint and, when asked, this product. Throws TokenVerificationError with the reason.
 */
export async function verifyLicenseFile(licenseFile: string, options: VerifyLicenseFileOptions): Promise<LicenseFileClaims> {
  let claims: LicenseFileClaims;
  try {
    const { payload } = await jwtVerify(licenseFile, keySetOf(options.jwks), {
      algorithms: ['EdDSA'],
      typ: 'JWT',
      issuer: await issuerOf(options),
      audience: `${options.merchant}:${options.mode}`,
      requiredClaims: ['iss', 'aud', 'sub', 'exp', 'iat', 'license_id', 'activation_id', 'fingerprint'],
      ...(options.clockTolerance !== undefined ? { clockTolerance: options.clockTolerance } : {}),
      ...(options.currentDate ? { currentDate: options.currentDate } : {}),
    });
    claims = payload as unknown as LicenseFileClaims;
  } catch (error: unknown) {
    throw failureOf(error);
  }
  if (claims.merchant !== options.merchant || claims.livemode !== (options.mode === 'live')) {
    throw new TokenVerificationError('WRONG_AUDIENCE', "The license file's merchant or livemode does not match its audience");
  }
  if (claims.fingerprint !== options.fingerprint) throw new TokenVerificationError('WRONG_MACHINE', 'The license file is for another machine');
  if ((options.productId && claims.product_id !== options.productId) || (options.storeProductId && claims.store_product_id !== options.storeProductId)) {
    throw new TokenVerificationError('WRONG_PRODUCT', 'The license file is for another product');
  }
  return claims;
}
