import { csrfHeaders, failureOf, type Mode, type Schemas } from './client';

/*
 * The dashboard's own routes (/dashboard/api/*, docs/dashboard-api-contract.md): sign-in, the
 * session, password setup, the Overview numbers /v1 has no route for, API keys and the team. They
 * are merchant-wide except the Overview, which names the page's mode in `Eh-Mode`.
 */

export interface Session {
  user_id?: string;
  email: string;
  merchant_id: string;
  merchant_name?: string;
  csrf_token: string;
  /** Where browser uploads are sent (PUBLIC_BASE_URL's origin, or the S3 endpoint's). */
  upload_origin?: string;
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
export type CreateApiKey = Schemas['CreateApiKeyDto'];

export interface TeamMember {
  id: string;
  email: string;
  created_at: string;
  last_signed_in_at: string | null;
  setup_pending: boolean;
}

export interface SetupLink {
  user: TeamMember;
  setup_url: string;
  setup_url_expires_at: string;
}

interface RequestOptions {
  body?: unknown;
  mode?: Mode;
  idempotencyKey?: string;
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...csrfHeaders(method) };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.mode) headers['Eh-Mode'] = options.mode;
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  const response = await globalThis.fetch(`/dashboard/api/${path}`, {
    method,
    credentials: 'same-origin',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const json = (await response.json().catch(() => ({}))) as { data?: T };
  if (!response.ok || json.data === undefined) throw failureOf(response.status, json);
  return json.data;
}

export const dashboardApi = {
  session: () => request<Session>('GET', 'session'),
  signIn: (email: string, password: string) => request<Session>('POST', 'sign-in', { body: { email, password } }),
  signOut: () => request<{ signed_out: boolean }>('POST', 'sign-out'),
  setup: (token: string, password: string) => request<{ email: string }>('POST', 'setup', { body: { token, password } }),
  overview: (mode: Mode) => request<Overview>('GET', 'overview', { mode }),
  listKeys: () => request<ApiKey[]>('GET', 'api-keys'),
  createKey: (input: CreateApiKey, idempotencyKey: string) => request<CreatedApiKey>('POST', 'api-keys', { body: input, idempotencyKey }),
  revokeKey: (id: string) => request<ApiKey>('DELETE', `api-keys/${encodeURIComponent(id)}`),
  team: () => request<TeamMember[]>('GET', 'team'),
  invite: (email: string, idempotencyKey: string) => request<SetupLink>('POST', 'team/invitations', { body: { email }, idempotencyKey }),
  resetLink: (userId: string, idempotencyKey: string) => request<SetupLink>('POST', `team/${encodeURIComponent(userId)}/reset-link`, { idempotencyKey }),
  removeMember: (userId: string) => request<{ id: string; deleted: boolean }>('DELETE', `team/${encodeURIComponent(userId)}`),
};
