import { ApiFailure, csrfHeaders, modeHeaders, type Mode } from './client';
import type { components } from './dashboard-schema';

/*
 * The dashboard's own routes (/dashboard/api/*): sign-in, the session, API keys and the Overview
 * numbers. Their shapes come from openapi.dashboard.json (npm run dashboard:api).
 */

type DashboardSchemas = components['schemas'];
export type { Mode };
export type Session = DashboardSchemas['DashboardSessionResponseDto'];
export type DailyDownloads = DashboardSchemas['DailyDownloadsResponseDto'];
export type Overview = DashboardSchemas['DashboardOverviewResponseDto'];
export type ApiKey = DashboardSchemas['ApiKeyResponseDto'];
export type CreatedApiKey = DashboardSchemas['CreatedApiKeyResponseDto'];

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/dashboard/api/${path}`, {
    method,
    credentials: 'same-origin',
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...csrfHeaders(method), ...modeHeaders() },
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
  overview: () => request<Overview>('GET', 'overview'),
  listKeys: () => request<ApiKey[]>('GET', 'api-keys'),
  createKey: (input: { mode: Mode; scopes: string[]; name?: string }) => request<CreatedApiKey>('POST', 'api-keys', input),
  revokeKey: (id: string) => request<ApiKey>('DELETE', `api-keys/${encodeURIComponent(id)}`),
};
