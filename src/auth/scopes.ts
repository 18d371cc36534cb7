/**
 * Every scope an API key may hold; `*` on a key grants all of them. The narrower scopes
 * (`entitlements:grant`, `webhooks:read`, `events:redeliver`) exist for the dashboard's roles
 * (DESIGN §11) and are implied by the broader ones (SCOPE_IMPLICATIONS), so a key holding
 * `entitlements:write` or `webhooks:manage` keeps every route it had.
 */
export const SCOPES = [
  'entitlements:read',
  'entitlements:write',
  'entitlements:grant',
  'products:read',
  'products:write',
  'customers:read',
  'webhooks:manage',
  'webhooks:read',
  'events:read',
  'events:redeliver',
  'files:read',
  'files:write',
  'audit:read',
  'licenses:read',
  'licenses:write',
  'usage:read',
  'portal:read',
  'portal:write',
  'portal_settings:write',
] as const;

export type Scope = (typeof SCOPES)[number];
export const ALL_SCOPES_WILDCARD = '*';

/**
 * Scopes only a dashboard session holds, through its role (src/auth/roles.ts): they guard the
 * dashboard's own routes (Settings → Team, API keys), which no API key can call.
 */
export const SESSION_SCOPES = ['api_keys:manage', 'team:manage', 'team:owners'] as const;
export type SessionScope = (typeof SESSION_SCOPES)[number];

/** A broader scope grants the narrower ones listed for it (a route declares the narrowest that allows it). */
export const SCOPE_IMPLICATIONS: Readonly<Partial<Record<Scope, readonly Scope[]>>> = {
  'entitlements:write': ['entitlements:grant'],
  'webhooks:manage': ['webhooks:read', 'events:redeliver'],
};

/** For each scope, the scopes any of which grants it: itself and the broader ones implying it. */
export const GRANTED_BY: ReadonlyMap<string, readonly string[]> = new Map(
  SCOPES.map((scope) => [scope, [scope, ...SCOPES.filter((broader) => SCOPE_IMPLICATIONS[broader]?.includes(scope))]]),
);

/** What a key's `scopes` may list: the scopes, or the wildcard. */
export const SCOPE_CHOICES: readonly string[] = [ALL_SCOPES_WILDCARD, ...SCOPES];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
