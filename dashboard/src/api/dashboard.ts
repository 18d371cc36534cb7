import { ApiFailure, csrfHeaders, type Schemas } from './client';

/*
 * The dashboard's own routes (/dashboard/api/*): sign-in, the session, the test/live switch, API
 * keys and the Overview numbers. They are not in the public OpenAPI document, so their shapes are
 * written here.
 */

export type Mode = 'test' | 'live';

export interface Session {
  email: string;
  merchant_id: string;
  mode: Mode;
  csrf_token: string;
}

export interface DailyDownloads {
  day: string;
  downloads: number;
  bytes: number;
}

export interface Overview {
  usage: Schemas['MerchantUsageResponseDto'];
  daily: DailyDownloads[];
}

export type ApiKey = Schemas['ApiKeyResponseDto'];
export type CreatedApiKey = Schemas['CreatedApiKeyResponseDto'];

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/dashboard/api/${path}`, {
    method,
    credentials: 'same-origin',
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...csrfHeaders(method) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json().catch(() => ({}))) as { data?: T; error?: { message?: string; code?: string } };
  if (!response.ok || json.data === undefined) {
    throw new ApiFailure(json.error?.message ?? `Request failed (${response.status})`, response.status, json.error?.code ?? 'UNKNOWN');
  }
  return json.data;
}

export const dashboardApi = {
  session: () => request<Session>('GET', 'session'),
  signIn: (email: string, password: string) => request<Session>('POST', 'sign-in', { email, password }),
  signOut: () => request<{ signed_out: boolean }>('POST', 'sign-out'),
  setup: (token: string, password: string) => request<{ email: string }>('POST', 'setup', { token, password }),
  switchMode: (mode: Mode) => request<Session>('POST', 'session/mode', { mode }),
  overview: () => request<Overview>('GET', 'overview'),
  listKeys: () => request<ApiKey[]>('GET', 'api-keys'),
  createKey: (input: { mode: Mode; scopes: string[]; name?: string }) => request<CreatedApiKey>('POST', 'api-keys', input),
  revokeKey: (id: string) => request<ApiKey>('DELETE', `api-keys/${encodeURIComponent(id)}`),
};
