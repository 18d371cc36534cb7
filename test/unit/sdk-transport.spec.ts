import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import {
  ApiConnectionError,
  ApiError,
  ApiServerError,
  ApiTimeoutError,
  AuthenticationError,
  BillingError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  backoffDelay,
  createEntitlementDeliveryClient,
  DEFAULT_RETRY_POLICY,
  retryAfterDelay,
} from '@entitlement-delivery/sdk';

/**
 * The SDK's retries, timeouts and cancellation (sdk/src/transport.ts), driven through the client
 * with a scripted fetch, and against a loopback server that never answers for the timeouts.
 */
const PRODUCT = { id: 'prod_1', name: 'Guide' };
const envelope = (data: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ data, meta: { request_id: 'req_1', timestamp: '2026-01-01T00:00:00.000Z' } }), {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_1', ...headers },
  });
const failure = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: { type: 'api_error', message: code, code, request_id: 'req_f' } }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

interface Sent {
  method: string;
  url: string;
  key: string | null;
  body: string;
  at: number;
}

/** A fetch answering from a script, recording what was sent. */
function scripted(answers: Array<(request: Request) => Response | Promise<Response>>) {
  const sent: Sent[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    sent.push({ method: request.method, url: request.url, key: request.headers.get('idempotency-key'), body: await request.clone().text(), at: Date.now() });
    const answer = answers[Math.min(sent.length - 1, answers.length - 1)];
    if (!answer) throw new Error('no scripted answer');
    return answer(request);
  };
  return { sent, fetch };
}

const fast = { initialRetryDelay: 5, maxRetryDelay: 20 };

describe('SDK retries', () => {
  it('retries a GET after a 503 and reports the attempts on the result', async () => {
    const { sent, fetch } = scripted([() => failure(503, 'SERVICE_UNAVAILABLE'), () => envelope(PRODUCT)]);
    const client = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', apiKey: 'eh_test_x', fetch, ...fast });
    const result = await client.products.get('prod_1');
    expect(result.data).toEqual(PRODUCT);
    expect(sent.map((request) => request.method)).toEqual(['GET', 'GET']);
    expect(result.lastResponse).toMatchObject({ status: 200, attempts: 2, requestId: 'req_1' });
  });

  it('waits Retry-After on a 429 and resends a write with the same Idempotency-Key', async () => {
    const { sent, fetch } = scripted([() => failure(429, 'RATE_LIMITED', { 'retry-after': '1' }), () => envelope(PRODUCT)]);
    const client = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', apiKey: 'eh_test_x', fetch, ...fast });
    await client.products.create({ name: 'Guide', entitlement_type: 'permanent' });
    expect(sent).toHaveLength(2);
    expect(sent[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]?.key).toBe(sent[0]?.key);
    expect(sent[1]?.body).toBe(sent[0]?.body);
    // Retry-After is 1 s, far above the 5–20 ms backoff: the wait is the header's.
    expect((sent[1]?.at ?? 0) - (sent[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('retries network errors, then throws ApiConnectionError with the number of attempts', async () => {
    const { sent, fetch } = scripted([
      () => {
        throw new TypeError('fetch failed');
      },
    ]);
    const client = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', apiKey: 'eh_test_x', fetch, maxRetries: 3, ...fast });
    const error = await client.products.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).not.toBeInstanceOf(ApiTimeoutError);
    expect(error).toMatchObject({ attempts: 4, cause: expect.any(TypeError) });
    expect(sent).toHaveLength(4);
  });

  it('never retries a write without an Idempotency-Key (the admin API takes none)', async () => {
    const { sent, fetch } = scripted([() => failure(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '0' }), () => envelope({ id: 'mer_1' })]);
    const client = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', adminToken: 'admin-token-0123456789', fetch, ...fast });
    await expect(client.admin.createMerchant({ name: 'Shop', plan: 'free' })).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.key).toBeNull();
  });

  it('stops after maxRetries, per client or per call (0 turns retries off)', async () => {
    const always503 = () => failure(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '0' });
    const first = scripted([always503]);
    const client = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', apiKey: 'eh_test_x', fetch: first.fetch, ...fast });
    const error = await client.products.get('prod_1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, retryAfter: 0, lastResponse: { attempts: DEFAULT_RETRY_POLICY.maxRetries + 1 } });
    expect(first.sent).toHaveLength(DEFAULT_RETRY_POLICY.maxRetries + 1);

    const second = scripted([always503]);
    const noRetries = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', apiKey: 'eh_test_x', fetch: second.fetch, ...fast });
    await expect(noRetries.products.get('prod_1', { maxRetries: 0 })).rejects.toMatchObject({ status: 503 });
    expect(second.sent).toHaveLength(1);
  });

  it('does not wait out a Retry-After longer than maxRetryAfter: the 429 is thrown with it', async () => {
    const { sent, fetch } = scripted([() => failure(429, 'RATE_LIMITED', { 'retry-after': '120' })]);
    const client = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', apiKey: 'eh_test_x', fetch, ...fast });
    await expect(client.products.get('prod_1')).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 120 });
    expect(sent).toHaveLength(1);
  });

  it('does not retry other errors (a 409 or a 500 is an answer)', async () => {
    for (const [status, code] of [
      [409, 'IDEMPOTENCY_KEY_CONFLICT'],
      [500, 'INTERNAL_ERROR'],
    ] as const) {
      const { sent, fetch } = scripted([() => failure(status, code)]);
      const client = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', apiKey: 'eh_test_x', fetch, ...fast });
      await expect(client.products.create({ name: 'x', entitlement_type: 'permanent' })).rejects.toMatchObject({ status, code });
      expect(sent).toHaveLength(1);
    }
  });

  it("follows the service's X-Should-Retry: a 409 or 500 marked true is retried with the same key, a 503 marked false is not", async () => {
    const inFlight = scripted([() => failure(409, 'IDEMPOTENCY_KEY_CONFLICT', { 'x-should-retry': 'true', 'retry-after': '0' }), () => envelope(PRODUCT)]);
    const client = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', apiKey: 'eh_test_x', fetch: inFlight.fetch, ...fast });
    await expect(client.products.create({ name: 'Guide', entitlement_type: 'permanent' })).resolves.toMatchObject({ data: PRODUCT });
    expect(inFlight.sent).toHaveLength(2);
    expect(inFlight.sent[1]?.key).toBe(inFlight.sent[0]?.key);

    const serverError = scripted([() => failure(500, 'INTERNAL_ERROR', { 'x-should-retry': 'true' }), () => envelope(PRODUCT)]);
    const reads = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', apiKey: 'eh_test_x', fetch: serverError.fetch, ...fast });
    await expect(reads.products.get('prod_1')).resolves.toMatchObject({ data: PRODUCT });
    expect(serverError.sent).toHaveLength(2);

    const refused = scripted([() => failure(503, 'SERVICE_UNAVAILABLE', { 'x-should-retry': 'false', 'retry-after': '0' })]);
    const noHint = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', apiKey: 'eh_test_x', fetch: refused.fetch, ...fast });
    const error = await noHint.products.get('prod_1').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 503, shouldRetry: false });
    expect(refused.sent).toHaveLength(1);

    // Not idempotent (no key: the admin API), the hint changes nothing.
    const admin = scripted([() => failure(409, 'IDEMPOTENCY_KEY_CONFLICT', { 'x-should-retry': 'true' })]);
    const adminClient = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', adminToken: 'admin-token-0123456789', fetch: admin.fetch, ...fast });
    await expect(adminClient.admin.createMerchant({ name: 'Shop', plan: 'free' })).rejects.toMatchObject({ status: 409, shouldRetry: true });
    expect(admin.sent).toHaveLength(1);
  });

  it('throws the subclass of ApiError that names the error type', async () => {
    const typed = (status: number, type: string, code: string) =>
      new Response(JSON.stringify({ error: { type, message: code, code, request_id: 'req_t' } }), { status, headers: { 'content-type': 'application/json' } });
    const cases = [
      [400, 'invalid_request_error', 'INVALID_PARAMETER', InvalidRequestError],
      [401, 'authentication_error', 'INVALID_API_KEY', AuthenticationError],
      [402, 'billing_error', 'STORAGE_LIMIT_REACHED', BillingError],
      [403, 'permission_error', 'INSUFFICIENT_SCOPE', PermissionError],
      [404, 'not_found_error', 'PRODUCT_NOT_FOUND', NotFoundError],
      [409, 'conflict_error', 'PRODUCT_ARCHIVED', ConflictError],
      [429, 'rate_limit_error', 'RATE_LIMITED', RateLimitError],
      [500, 'api_error', 'INTERNAL_ERROR', ApiServerError],
    ] as const;
    for (const [status, type, code, ErrorClass] of cases) {
      const { fetch } = scripted([() => typed(status, type, code)]);
      const client = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', apiKey: 'eh_test_x', fetch, maxRetries: 0, ...fast });
      const error = await client.products.get('prod_1').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status, type, code, name: ErrorClass.name });
    }
    const { fetch } = scripted([() => new Response('<html>bad gateway</html>', { status: 502 })]);
    const client = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', apiKey: 'eh_test_x', fetch, maxRetries: 0, ...fast });
    const unexpected = await client.products.get('prod_1').catch((caught: unknown) => caught);
    expect(unexpected).toMatchObject({ name: 'ApiError', code: 'UNEXPECTED_RESPONSE' });
  });
});

describe('SDK backoff', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, initialRetryDelay: 100, maxRetryDelay: 1_000 };

  it('doubles each retry with jitter between half and all of the step, capped', () => {
    expect([0, 1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, policy, () => 1))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect([0, 1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, policy, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterDelay(new Response(null, { headers: { 'retry-after': '3' } }))).toBe(3_000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterDelay(new Response(null, { headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' } }), now)).toBe(5_000);
    expect(retryAfterDelay(new Response(null))).toBeNull();
  });
});

describe('SDK timeouts and cancellation', () => {
  let server: Server;
  let baseUrl: string;
  // Requests counted per path: a request of an earlier test can reach this server (same event
  // loop) after that test ended, so each test asks for its own product and counts only that.
  const requests = new Map<string, number>();
  const requestsFor = (productId: string): number => requests.get(`/v1/products/${productId}`) ?? 0;

  beforeAll(async () => {
    // Accepts requests and never answers: only the client's deadline or signal ends them.
    server = createServer((request) => {
      const path = request.url ?? '';
      requests.set(path, (requests.get(path) ?? 0) + 1);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('abandons an attempt after `timeout` ms, retries an idempotent call, then throws ApiTimeoutError', async () => {
    const client = createEntitlementDeliveryClient({ baseUrl, apiKey: 'eh_test_x', timeout: 200, maxRetries: 1, ...fast });
    const error = await client.products.get('prod_timeout').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(error).toMatchObject({ attempts: 2 });
    expect(requestsFor('prod_timeout')).toBe(2);
  });

  it('takes a per-call timeout over the client default', async () => {
    const client = createEntitlementDeliveryClient({ baseUrl, apiKey: 'eh_test_x', timeout: 60_000, maxRetries: 0 });
    await expect(client.products.get('prod_1', { timeout: 100 })).rejects.toBeInstanceOf(ApiTimeoutError);
  });

  it("rejects with the signal's reason when the caller aborts, with no retry", async () => {
    const client = createEntitlementDeliveryClient({ baseUrl, apiKey: 'eh_test_x', timeout: 60_000, maxRetries: 3 });
    const controller = new AbortController();
    const call = client.products.get('prod_abort', { signal: controller.signal });
    const reason = new Error('the user left');
    setTimeout(() => controller.abort(reason), 100);
    await expect(call).rejects.toBe(reason);
    expect(requestsFor('prod_abort')).toBe(1);
  });

  it('stops waiting between retries when aborted', async () => {
    const controller = new AbortController();
    const { sent, fetch } = scripted([
      () => {
        // Aborted once the 503 is in: the client is waiting out its Retry-After of 30 s.
        setTimeout(() => controller.abort(), 20);
        return failure(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '30' });
      },
    ]);
    const client = createEntitlementDeliveryClient({ baseUrl: 'http://api.test', apiKey: 'eh_test_x', fetch });
    await expect(client.products.get('prod_1', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(sent).toHaveLength(1);
  });
});
