import { hasScope } from '../../src/auth/auth-context';
import { ROLE_SCOPES, ROLES, scopesOfRole } from '../../src/auth/roles';
import { SCOPES, SESSION_SCOPES } from '../../src/auth/scopes';

/** DESIGN §11's table of roles, as src/auth/roles.ts builds it from the scopes. */
describe('roles to scopes', () => {
  const holds = (role: (typeof ROLES)[number], scope: string) => hasScope({ scopes: ROLE_SCOPES[role] }, scope as never);

  it('gives the owner every scope, API and session', () => {
    for (const scope of [...SCOPES, ...SESSION_SCOPES]) expect({ scope, held: holds('owner', scope) }).toEqual({ scope, held: true });
  });

  it('gives admins everything but the owners', () => {
    expect([...SCOPES, ...SESSION_SCOPES].filter((scope) => !holds('admin', scope))).toEqual(['team:owners']);
  });

  it('gives developers the API but not the team nor the audit log', () => {
    expect([...SCOPES, ...SESSION_SCOPES].filter((scope) => !holds('developer', scope)).sort()).toEqual(['audit:read', 'team:manage', 'team:owners']);
  });

  it('gives support the reads, the entitlement lifecycle, redelivery and portal links (DESIGN §19), and nothing else', () => {
    const held = [...SCOPES, ...SESSION_SCOPES].filter((scope) => holds('support', scope));
    expect(held.filter((scope) => !scope.endsWith(':read')).sort()).toEqual(['entitlements:grant', 'events:redeliver', 'portal:write']);
    expect(held).not.toContain('audit:read');
  });

  it('gives viewers reads only', () => {
    const held = [...SCOPES, ...SESSION_SCOPES].filter((scope) => holds('viewer', scope));
    expect(held.every((scope) => scope.endsWith(':read'))).toBe(true);
    expect(held).toEqual(expect.arrayContaining(['entitlements:read', 'products:read', 'customers:read', 'events:read', 'files:read', 'webhooks:read']));
  });

  it('holds nothing in live mode for a member limited to test mode', () => {
    expect(scopesOfRole('owner', true, 'live').size).toBe(0);
    expect(scopesOfRole('owner', true, 'test')).toBe(ROLE_SCOPES.owner);
  });

  it('lets a broader key scope through where a narrower one is declared, not the other way', () => {
    expect(hasScope({ scopes: new Set(['entitlements:write']) }, 'entitlements:grant')).toBe(true);
    expect(hasScope({ scopes: new Set(['entitlements:grant']) }, 'entitlements:write')).toBe(false);
    expect(hasScope({ scopes: new Set(['webhooks:manage']) }, 'events:redeliver')).toBe(true);
    expect(hasScope({ scopes: new Set(['*']) }, 'audit:read')).toBe(true);
  });
});
