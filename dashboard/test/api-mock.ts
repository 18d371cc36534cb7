import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import type { Session } from '../src/api/dashboard';

/*
 * The API as the dashboard sees it (docs/dashboard-api-contract.md), answered in memory: tests
 * add the routes they need with `server.use(...)` and read what was sent from `sent`.
 */
export const server = setupServer();

export interface SentRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

/** Every request the mock answered, in order. */
export const sent: SentRequest[] = [];

/** A JSON body as a value; any other (CSV) as its text. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

server.events.on('request:start', async ({ request }) => {
  const url = new URL(request.url);
  const text = request.method === 'GET' ? '' : await request.clone().text();
  sent.push({ method: request.method, path: url.pathname, query: url.searchParams, headers: request.headers, body: text ? parsed(text) : undefined });
});

export function resetSent(): void {
  sent.length = 0;
}

export function sentTo(method: string, path: string): SentRequest[] {
  return sent.filter((request) => request.method === method && request.path === path);
}

const meta = { request_id: 'req_test', timestamp: '2026-11-26T12:00:00.000Z' };

/** An enveloped answer. */
export function ok(data: JsonBodyType, status = 200) {
  return HttpResponse.json({ data, meta }, { status });
}

/** An enveloped list page. */
export function page(data: JsonBodyType[], options: { has_more?: boolean; next_cursor?: string | null; total?: number } = {}) {
  return HttpResponse.json({
    data,
    meta,
    pagination: { limit: 25, has_more: options.has_more ?? false, next_cursor: options.next_cursor ?? null, total: options.total ?? data.length },
  });
}

/** An API error as the service renders it. */
export function failure(status: number, code: string, message: string, param?: string) {
  return HttpResponse.json({ error: { type: status === 409 ? 'conflict_error' : 'invalid_request_error', code, message, request_id: 'req_test', ...(param ? { param } : {}) } }, { status });
}

export { http, HttpResponse };

/** Every scope an owner holds (src/auth/roles.ts). */
export const OWNER_SCOPES: Session['scopes'] = [
  'entitlements:read',
  'entitlements:write',
  'entitlements:grant',
  'products:read',
  'products:write',
  'customers:read',
  'webhooks:manage',
  'webhooks:read',
  'events:read',
  'events:redeliver',
  'files:read',
  'files:write',
  'audit:read',
  'api_keys:manage',
  'team:manage',
  'team:owners',
];

export const SESSION: Session = {
  user_id: 'du_1',
  email: 'ada@example.com',
  merchant_id: 'mer_1',
  merchant_name: 'Ada Books',
  csrf_token: 'csrf_1',
  role: 'owner',
  test_only: false,
  scopes: OWNER_SCOPES,
};

/** A session of another role, holding the scopes given. */
export function sessionAs(role: Session['role'], scopes: Session['scopes'], testOnly = false): Session {
  return { ...SESSION, role, scopes, test_only: testOnly };
}

export function product(overrides: Record<string, unknown> = {}) {
  return {
    id: 'prod_01aaaaaaaaaaaaaaaaaaaaaaaa',
    store_product_id: null,
    name: 'Field Guide',
    description: '',
    entitlement_type: 'permanent',
    access_duration_days: null,
    usage_limit: null,
    status: 'active',
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
    store_variant_ids: [],
    included_product_ids: [],
    metadata: {},
    fulfillment_config: { delivery_method: 'FILE', file_ids: [], access_url: null, access_instructions: null },
    ...overrides,
  };
}

export function entitlement(overrides: Record<string, unknown> = {}) {
  return {
    id: 'ent_01aaaaaaaaaaaaaaaaaaaaaaaa',
    customer_id: 'cus_01aaaaaaaaaaaaaaaaaaaaaaaa',
    store_customer_id: 'cust_1',
    product_id: 'prod_01aaaaaaaaaaaaaaaaaaaaaaaa',
    status: 'active' as const,
    granted_at: '2026-11-01T00:00:00.000Z',
    expires_at: null as string | null,
    revoked_at: null,
    revocation_reason: null,
    usage_count: 0,
    usage_limit: null as number | null,
    source: 'manual' as const,
    store_order_id: null,
    metadata: {} as Record<string, unknown>,
    test_clock: null as string | null,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    store_line_item_id: null,
    parent_entitlement_id: null as string | null,
    suspended_at: null,
    suspension_reason: null,
    ...overrides,
  };
}
