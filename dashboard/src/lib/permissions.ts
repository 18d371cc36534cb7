import type { Session } from '../api/dashboard';
import { useSession } from '../shell/session';
import { useMode } from './mode';

export type Permission = Session['scopes'][number];

/**
 * Whether the signed-in user's role allows a scope in the page's mode (DESIGN §11): the dashboard
 * hides what it doesn't, and the server refuses it anyway. A member limited to test mode holds
 * nothing in live mode.
 */
export function useCan(): (scope: Permission) => boolean {
  const session = useSession();
  const mode = useMode();
  return (scope) => !(session.test_only && mode === 'live') && session.scopes.includes(scope);
}
