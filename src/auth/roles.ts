import type { ApiMode } from '../database/tenant';
import { SCOPES, SESSION_SCOPES, type Scope, type SessionScope } from './scopes';

/** A dashboard user's role (DESIGN §11); a session's rights are its role's scopes. */
export const ROLES = ['owner', 'admin', 'developer', 'support', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Reads every role holds: a scope ending in `:read` is one, unless listed here as for owners and admins only. */
const PRIVILEGED_READS: readonly Scope[] = ['audit:read'];
/**
 * What support may change beyond reading: grant, suspend, reactivate, revoke; redeliver events;
 * portal links (DESIGN §19), but not the portal's branding (portal_settings:write). Add a new support write here.
 */
const SUPPORT_WRITES: readonly Scope[] = ['entitlements:grant', 'events:redeliver', 'portal:write'];
/** What a developer may not do although it is an API scope. */
const NOT_FOR_DEVELOPERS: readonly Scope[] = ['audit:read'];

const READS = SCOPES.filter((scope) => scope.endsWith(':read') && !PRIVILEGED_READS.includes(scope));

/**
 * The one table of roles to scopes. A new scope needs no change here when it follows the rules:
 * a `…:read` scope goes to every role, any other API scope to developers, admins and owners; a
 * scope support may use goes into SUPPORT_WRITES, one developers may not into NOT_FOR_DEVELOPERS.
 */
export const ROLE_SCOPES: Readonly<Record<Role, ReadonlySet<Scope | SessionScope>>> = {
  owner: new Set([...SCOPES, ...SESSION_SCOPES]),
  admin: new Set([...SCOPES, ...SESSION_SCOPES.filter((scope) => scope !== 'team:owners')]),
  developer: new Set([...SCOPES.filter((scope) => !NOT_FOR_DEVELOPERS.includes(scope)), 'api_keys:manage']),
  support: new Set([...READS, ...SUPPORT_WRITES]),
  viewer: new Set(READS),
};

/** A member limited to test mode (`test_only`) holds no scope in live mode: every live request is 403. */
export const NO_SCOPES: ReadonlySet<Scope | SessionScope> = new Set();

export function scopesOfRole(role: Role, testOnly: boolean, mode: ApiMode | null): ReadonlySet<Scope | SessionScope> {
  if (testOnly && mode === 'live') return NO_SCOPES;
  return ROLE_SCOPES[role];
}
