import createClient, { type Client, type Middleware, type RequestBodyOption } from 'openapi-fetch';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];
export type Mode = 'test' | 'live';
export const MODES: readonly Mode[] = ['test', 'live'];

export function isMode(value: unknown): value is Mode {
  return value === 'test' || value === 'live';
}

let csrfToken = '';

/** The session's CSRF token, sent as X-CSRF-Token on every state-changing request. */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The CSRF header as the dashboard's generated routes declare it (a required header parameter). */
export function csrfHeader(): { 'X-CSRF-Token': string } {
  return { 'X-CSRF-Token': csrfToken };
}

export function csrfHeaders(method: string): Record<string, string> {
  return SAFE_METHODS.has(method.toUpperCase()) ? {} : { 'X-CSRF-Token': csrfToken };
}

const csrf: Middleware = {
  onRequest({ request }) {
    for (const [name, value] of Object.entries(csrfHeaders(request.method))) request.headers.set(name, value);
    return request;
  },
};

export type ApiClient = Client<paths>;

const clients = new Map<Mode, ApiClient>();

/**
 * The typed /v1 client of one mode, generated from openapi.json (npm run dashboard:api). The
 * session cookie authenticates it and every request names its mode in `Eh-Mode` (DESIGN §11): a
 * page's mode comes from its address, never from the session, so two tabs never mix modes.
 * `fetch` is looked up per call, so component tests can intercept it.
 */
export function apiFor(mode: Mode): ApiClient {
  let client = clients.get(mode);
  if (!client) {
    client = createClient<paths>({
      baseUrl: window.location.origin,
      credentials: 'same-origin',
      headers: { 'Eh-Mode': mode },
      fetch: (request) => globalThis.fetch(request),
    });
    client.use(csrf);
    clients.set(mode, client);
  }
  return client;
}

/** Headers of a write that must happen once however often it is sent (DESIGN §4 Idempotency). */
export function idempotent(key: string): { headers: Record<string, string> } {
  return { headers: { 'Idempotency-Key': key } };
}

export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    /** The field or parameter at fault, when the API names one (`error.param`). */
    readonly param?: string,
  ) {
    super(message);
  }
}

interface ErrorBody {
  error?: { message?: string; code?: string; param?: string };
}

export function failureOf(status: number, body: unknown): ApiFailure {
  const error = (body ?? {}) as ErrorBody;
  return new ApiFailure(error.error?.message ?? `The request failed (HTTP ${status})`, status, error.error?.code ?? 'UNKNOWN', error.error?.param);
}

/** The `data` of an enveloped answer, or an ApiFailure carrying the error's message and field. */
export function unwrap<T>(result: { data?: { data: T }; error?: unknown; response: Response }): T {
  if (result.data !== undefined) return result.data.data;
  throw failureOf(result.response.status, result.error);
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
  total?: number;
}

/**
 * A list answer as one page: its items, whether more follow and the total when the list counts it.
 * Lists that can also answer CSV (Accept: text/csv, see downloadCsv) are typed as JSON or text:
 * the dashboard asks them for JSON, so text here is a failure.
 */
export function unwrapPage<T>(result: {
  data?: { data: T[]; pagination: { has_more: boolean; next_cursor?: string | null; total?: number } } | string;
  error?: unknown;
  response: Response;
}): Page<T> {
  if (result.data === undefined || typeof result.data === 'string') throw failureOf(result.response.status, result.error);
  const { pagination } = result.data;
  return { data: result.data.data, has_more: pagination.has_more, next_cursor: pagination.next_cursor ?? null, total: pagination.total };
}

/** The JSON body an operation takes, exactly as openapi-fetch checks it. */
export type BodyOf<P extends keyof paths, M extends 'post' | 'patch' | 'put'> = NonNullable<RequestBodyOption<paths[P][M]>['body']>;

/**
 * Every page of a list as a CSV file saved by the browser (`Accept: text/csv`, DESIGN §11): the
 * server streams all pages with the list's filters; the session's cookie and the page's mode
 * authenticate it as any /v1 request (a plain link could not send `Eh-Mode`).
 */
export async function downloadCsv(mode: Mode, path: string, query: Record<string, string | undefined>, fileName: string): Promise<void> {
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const url = `${window.location.origin}${path}${search.size > 0 ? `?${search.toString()}` : ''}`;
  const response = await globalThis.fetch(url, { credentials: 'same-origin', headers: { 'Eh-Mode': mode, Accept: 'text/csv' } });
  if (!response.ok) throw failureOf(response.status, await response.json().catch(() => undefined));
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(link.href);
}
