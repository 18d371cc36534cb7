/** Every scope of the reference's table; `*` on a key grants all of them. */
export const SCOPES = [
  'entitlements:read',
  'entitlements:write',
  'products:read',
  'products:write',
  'customers:read',
  'webhooks:manage',
  'events:read',
  'files:read',
  'files:write',
  'usage:read',
] as const;

export type Scope = (typeof SCOPES)[number];
export const ALL_SCOPES_WILDCARD = '*';

/** What a key's `scopes` may list: the scopes, or the wildcard. */
export const SCOPE_CHOICES: readonly string[] = [ALL_SCOPES_WILDCARD, ...SCOPES];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
