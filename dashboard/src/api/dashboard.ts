import createClient from 'openapi-fetch';
import { csrfHeader, idempotent, unwrap, type Mode } from './client';
import type { components, paths } from './dashboard-schema';

/*
 * The dashboard's own routes (/dashboard/api/*, docs/dashboard-api-contract.md): sign-in, the
 * session, password setup, the Overview numbers /v1 has no route for, API keys and the team. They
 * are merchant-wide except the Overview, which names the page's mode in `Eh-Mode`. Every type
 * here comes from openapi.dashboard.json (npm run dashboard:api), so a changed route fails the
 * dashboard's type check instead of its users.
 */

type DashboardSchemas = components['schemas'];
export type Session = DashboardSchemas['DashboardSessionResponseDto'];
export type Overview = DashboardSchemas['DashboardOverviewResponseDto'];
export type DailyDownloads = DashboardSchemas['DailyDownloadsResponseDto'];
export type ApiKey = DashboardSchemas['ApiKeyResponseDto'];
export type CreatedApiKey = DashboardSchemas['CreatedApiKeyResponseDto'];
export type CreateApiKey = DashboardSchemas['CreateApiKeyDto'];
export type TeamMember = DashboardSchemas['TeamMemberResponseDto'];
export type SetupLink = DashboardSchemas['TeamSetupLinkResponseDto'];
export type Role = TeamMember['role'];
export type MemberChange = DashboardSchemas['UpdateTeamMemberDto'];
export type Invitation = DashboardSchemas['InviteTeamMemberDto'];

/** `fetch` is looked up per call, so component tests can intercept it. */
const client = createClient<paths>({ baseUrl: globalThis.location?.origin, credentials: 'same-origin', fetch: (request) => globalThis.fetch(request) });

/** A state-changing route's parameters: the session's CSRF token, and the path's. */
const writing = () => ({ params: { header: csrfHeader() } });
const user = (userId: string) => ({ params: { header: csrfHeader(), path: { user_id: userId } } });

export const dashboardApi = {
  session: async () => unwrap(await client.GET('/dashboard/api/session')),
  signIn: async (email: string, password: string) => unwrap(await client.POST('/dashboard/api/sign-in', { body: { email, password } })),
  signOut: async () => unwrap(await client.POST('/dashboard/api/sign-out', writing())),
  setup: async (token: string, password: string) => unwrap(await client.POST('/dashboard/api/setup', { body: { token, password } })),
  overview: async (mode: Mode) => unwrap(await client.GET('/dashboard/api/overview', { params: { header: { 'Eh-Mode': mode } } })),
  listKeys: async () => unwrap(await client.GET('/dashboard/api/api-keys')),
  createKey: async (input: CreateApiKey, idempotencyKey: string) => unwrap(await client.POST('/dashboard/api/api-keys', { ...writing(), body: input, ...idempotent(idempotencyKey) })),
  revokeKey: async (id: string) => unwrap(await client.DELETE('/dashboard/api/api-keys/{api_key_id}', { params: { header: csrfHeader(), path: { api_key_id: id } } })),
  team: async () => unwrap(await client.GET('/dashboard/api/team')),
  invite: async (invitation: Invitation, idempotencyKey: string) => unwrap(await client.POST('/dashboard/api/team/invitations', { ...writing(), body: invitation, ...idempotent(idempotencyKey) })),
  resetLink: async (userId: string, idempotencyKey: string) => unwrap(await client.POST('/dashboard/api/team/{user_id}/reset-link', { ...user(userId), ...idempotent(idempotencyKey) })),
  updateMember: async (userId: string, change: MemberChange) => unwrap(await client.PATCH('/dashboard/api/team/{user_id}', { ...user(userId), body: change })),
  removeMember: async (userId: string) => unwrap(await client.DELETE('/dashboard/api/team/{user_id}', user(userId))),
};
