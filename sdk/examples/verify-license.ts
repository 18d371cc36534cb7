/**
 * Example: a desktop app checking its license offline (DESIGN §18).
 *
 * The app activates once with the key the customer typed (`client.licenses.activate`, no API key)
 * and keeps the `license_file` it gets back. From then on it starts without the network: the file
 * is verified with the service's public keys (cached after the first fetch, or shipped with the
 * app as a JWKS object), pinned to the merchant and mode, and must name this machine's fingerprint,
 * so a file copied to another machine is refused. When the file nears its `exp`, the app calls
 * `licenses.heartbeat` or `licenses.activate` again for a fresh one.
 *
 * CI compiles it against the packed SDK and runs it on real files: on its own machine (licensed)
 * and on another (refused); see sdk/examples/walk.ts.
 */
import { TokenVerificationError, verifyLicenseFile, type LicenseFileClaims } from '@entitlement-delivery/sdk';

export interface LicensePolicy {
  /** `https://api.example.com/.well-known/jwks.json`, or the key set itself for a fully offline app. */
  jwksUrl: string;
  /** The seller's merchant id (`mer_…`). */
  merchantId: string;
  /** `live` in the shipped app. */
  mode: 'live' | 'test';
}

export type LicenseDecision = { licensed: true; claims: LicenseFileClaims } | { licensed: false; reason: string };

/** Is this machine (its `fingerprint`, computed as it was to activate) licensed by `licenseFile`? */
export async function checkLicenseOffline(policy: LicensePolicy, licenseFile: string, fingerprint: string): Promise<LicenseDecision> {
  try {
    const claims = await verifyLicenseFile(licenseFile, { jwks: policy.jwksUrl, merchant: policy.merchantId, mode: policy.mode, fingerprint });
    return { licensed: true, claims };
  } catch (error: unknown) {
    // WRONG_MACHINE (copied from another machine), EXPIRED (renew online), WRONG_AUDIENCE, INVALID_SIGNATURE…
    if (error instanceof TokenVerificationError) return { licensed: false, reason: error.reason };
    throw error;
  }
}
