import type { EntitlementEntity, EntitlementStatus } from './entitlement.entity';

type ExpiryFields = Pick<EntitlementEntity, 'status' | 'expires_at' | 'usage_count' | 'usage_limit'>;

/** True when an active entitlement's time or uses have run out at `now` (the instant itself counts). */
export function hasRunOut(entitlement: Omit<ExpiryFields, 'status'>, now: Date): boolean {
  return (
    (entitlement.expires_at !== null && entitlement.expires_at.getTime() <= now.getTime()) ||
    (entitlement.usage_limit !== null && entitlement.usage_count >= entitlement.usage_limit)
  );
}

/**
 * The status every read reports: the stored one, except that an active entitlement whose time or
 * uses have run out is expired from that instant, before the sweeper persists it.
 */
export function effectiveStatus(entitlement: ExpiryFields, now: Date): EntitlementStatus {
  return entitlement.status === 'active' && hasRunOut(entitlement, now) ? 'expired' : entitlement.status;
}

/** SQL of `hasRunOut` for a table alias; `nowParameter` is a bound timestamp (e.g. ':now' or '$5'). */
export function runOutSql(alias: string, nowParameter: string): string {
  return (
    `((${alias}.expires_at IS NOT NULL AND ${alias}.expires_at <= ${nowParameter}) OR ` +
    `(${alias}.usage_limit IS NOT NULL AND ${alias}.usage_count >= ${alias}.usage_limit))`
  );
}

/** SQL of `effectiveStatus`, so list filters agree with what the mapper reports. */
export function effectiveStatusSql(alias: string, nowParameter: string): string {
  return `(CASE WHEN ${alias}.status = 'active' AND ${runOutSql(alias, nowParameter)} THEN 'expired' ELSE ${alias}.status END)`;
}
