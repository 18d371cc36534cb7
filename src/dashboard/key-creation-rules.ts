import type { DashboardSessionCredential } from '../auth/auth-context';
import { insufficientScope } from '../auth/access.guard';
import { ROLE_SCOPES } from '../auth/roles';
import { ALL_SCOPES_WILDCARD, SCOPES } from '../auth/scopes';
import type { ApiMode } from '../database/tenant';
import type { ApiError } from '../errors/api-error';

/**
 * A session gives a new key no more than it holds itself (least privilege, DESIGN §11): no scope
 * its role lacks (`*` is every scope), and a live key only when the user isn't limited to test mode.
 */
export function refusalOfKeyCreation(session: DashboardSessionCredential, key: { mode: ApiMode; scopes: readonly string[] }): ApiError | null {
  const role = { name: session.role, testOnly: session.testOnly };
  if (key.mode === 'live' && session.testOnly) return insufficientScope({ role, mode: 'live' }, 'a live API key');
  const held = ROLE_SCOPES[session.role];
  const asked = key.scopes.includes(ALL_SCOPES_WILDCARD) ? SCOPES : key.scopes;
  const lacking = asked.find((scope) => (SCOPES as readonly string[]).includes(scope) && !held.has(scope as (typeof SCOPES)[number]));
  return lacking === undefined ? null : insufficientScope({ role, mode: key.mode }, lacking);
}
