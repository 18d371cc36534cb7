/** The statuses a license key shows: its entitlement's effective status (DESIGN §18). */
export const ENTITLEMENT_STATUSES_FOR_LICENSES = ['active', 'pending', 'suspended', 'revoked', 'expired'] as const;
export type LicenseStatus = (typeof ENTITLEMENT_STATUSES_FOR_LICENSES)[number];
