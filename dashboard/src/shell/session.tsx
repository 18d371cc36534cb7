import { MutationCache, QueryCache, QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import { ApiFailure, setCsrfToken } from '../api/client';
import { dashboardApi, type Session } from '../api/dashboard';

export const SESSION_KEY = ['session'] as const;

/**
 * The app's one cache of answers. A request refused for want of a session (it ended in another tab,
 * or expired) empties it and shows the sign-in page.
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 } },
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (sessionEnded(error) && query.queryKey[0] !== SESSION_KEY[0]) forgetSession(client);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error) => {
        if (sessionEnded(error)) forgetSession(client);
      },
    }),
  });
  return client;
}

/**
 * The session is gone: the dashboard's routes say INVALID_SESSION, and /v1 answers a request with
 * no session cookie as one without an API key (the cookie was cleared by signing out in another
 * tab); the dashboard never sends keys, so that too means "sign in again".
 */
function sessionEnded(error: unknown): boolean {
  return error instanceof ApiFailure && (error.code === 'INVALID_SESSION' || (error.status === 401 && error.code === 'INVALID_API_KEY'));
}

/**
 * Drops every cached answer (of both modes) and the CSRF token: nothing stays on screen. The
 * session's own entry stays, set to none, so the page watching it turns into the sign-in form.
 */
export function forgetSession(client: QueryClient): void {
  setCsrfToken('');
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
  client.getMutationCache().clear();
  client.setQueryData(SESSION_KEY, null);
}

export function useSessionQuery() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async (): Promise<Session | null> => {
      try {
        const found = await dashboardApi.session();
        setCsrfToken(found.csrf_token);
        return found;
      } catch (error) {
        if (error instanceof ApiFailure && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The signed-in user and merchant (only under the session gate). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs the session gate above it');
  return session;
}

/** Signs out: ends the session on the server, then forgets every cached answer. */
export function useSignOut(): () => Promise<void> {
  const client = useQueryClient();
  return async () => {
    await dashboardApi.signOut().catch(() => undefined);
    forgetSession(client);
  };
}
