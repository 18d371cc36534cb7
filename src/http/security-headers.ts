import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

export type SecurityHeaders = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/** helmet as configured here. No upgrade-insecure-requests: it would break Swagger UI's assets on a plain-HTTP deployment. */
export function createHelmet(): SecurityHeaders {
  return helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
}

/** What helmet does to a response: the headers it sets and those it removes (X-Powered-By). */
export interface HelmetEffect {
  set: Array<[string, string]>;
  removed: string[];
}

/** Runs `middleware` once on a recording response; helmet answers synchronously. */
export function recordHelmetEffect(middleware: SecurityHeaders, request: IncomingMessage): HelmetEffect {
  const effect: HelmetEffect = { set: [], removed: [] };
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => effect.set.push([name, String(value)]),
    removeHeader: (name: string) => effect.removed.push(name),
  } as unknown as ServerResponse;
  let finished = false;
  middleware(request, recorder, (error) => {
    if (error) throw error as Error;
    finished = true;
  });
  if (!finished) throw new Error('helmet did not finish synchronously');
  return effect;
}

/**
 * helmet's headers, worked out once and then set on every response. With this configuration
 * (no per-request nonce, no function directives) helmet sets the same headers whatever the
 * request; running its twelve middlewares on every request cost 4% of the access check's CPU.
 * test/unit/security-headers.spec.ts checks that the result equals helmet's own.
 */
export function createSecurityHeaders(): SecurityHeaders {
  const { set, removed } = recordHelmetEffect(createHelmet(), { headers: {}, method: 'GET', url: '/' } as IncomingMessage);
  return (_request, response, next) => {
    for (let index = 0; index < set.length; index += 1) response.setHeader(set[index][0], set[index][1]);
    for (let index = 0; index < removed.length; index += 1) response.removeHeader(removed[index]);
    next();
  };
}
