import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];

let csrfToken = '';
export type Mode = 'test' | 'live';
let currentMode: Mode = 'test';

/** The page's mode: every request names it in Eh-Mode (the session holds none). */
export function setMode(mode: Mode): void {
  currentMode = mode;
}

export function modeHeaders(): Record<string, string> {
  return { 'Eh-Mode': currentMode };
}

/** The session's CSRF token, sent as X-CSRF-Token on every state-changing request. */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function csrfHeaders(method: string): Record<string, string> {
  return SAFE_METHODS.has(method) ? {} : { 'X-CSRF-Token': csrfToken };
}

const csrf: Middleware = {
  onRequest({ request }) {
    for (const [name, value] of Object.entries({ ...csrfHeaders(request.method), ...modeHeaders() })) request.headers.set(name, value);
    return request;
  },
};

/**
 * The typed /v1 client, generated from openapi.json (npm run dashboard:api): the session cookie
 * authenticates it, so the dashboard calls exactly the API merchants' code calls.
 */
export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(csrf);

export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
  }
}

interface ErrorBody {
  error?: { message?: string; code?: string };
}

/** The `data` of an enveloped answer, or an ApiFailure carrying the error's message. */
export function unwrap<T>(result: { data?: { data: T }; error?: unknown; response: Response }): T {
  if (result.data !== undefined) return result.data.data;
  const body = (result.error ?? {}) as ErrorBody;
  throw new ApiFailure(body.error?.message ?? `Request failed (${result.response.status})`, result.response.status, body.error?.code ?? 'UNKNOWN');
}
