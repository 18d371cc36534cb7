import { Agent, fetch } from 'undici';

/**
 * A minimal JSON client for a service running in another process (test/support/app-process.ts),
 * where supertest can't reach. Every request has a deadline: a fault test must tell a slow answer
 * from one that never comes.
 */
export interface HttpAnswer<T> {
  status: number;
  headers: Headers;
  body: T;
  milliseconds: number;
}

/** No answer within the deadline, or the connection failed. */
export interface HttpFailure {
  status: 'timeout' | 'network-error';
  error: string;
  milliseconds: number;
}

export type HttpOutcome<T> = HttpAnswer<T> | HttpFailure;

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMilliseconds?: number;
}

export const isAnswer = <T>(outcome: HttpOutcome<T>): outcome is HttpAnswer<T> => typeof outcome.status === 'number';

export class HttpClient {
  /**
   * `ownConnections`: this client keeps its own keep-alive connections instead of sharing the
   * process-wide pool, so a measured request never queues in the client behind another client's
   * burst (the service's delay is what a test measures).
   */
  constructor(
    readonly baseUrl: string,
    private readonly bearerToken?: string,
    ownConnections = false,
  ) {
    this.dispatcher = ownConnections ? new Agent({ connections: 2 }) : undefined;
  }

  private readonly dispatcher: Agent | undefined;

  async close(): Promise<void> {
    await this.dispatcher?.close();
  }

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<HttpOutcome<T>> {
    const started = performance.now();
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (this.bearerToken) headers.Authorization = `Bearer ${this.bearerToken}`;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(options.timeoutMilliseconds ?? 15_000),
        dispatcher: this.dispatcher,
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        // Not JSON (a plain-text storage answer): keep the text.
      }
      return { status: response.status, headers: response.headers as unknown as Headers, body: body as T, milliseconds: performance.now() - started };
    } catch (error: unknown) {
      const name = error instanceof Error ? error.name : '';
      return {
        status: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network-error',
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        milliseconds: performance.now() - started,
      };
    }
  }

  /** The `data` of an enveloped answer with the expected status; anything else fails the test with the answer. */
  async expectData<T>(status: number, method: string, path: string, body?: unknown): Promise<T> {
    const outcome = await this.request<{ data: T }>(method, path, { body });
    if (!isAnswer(outcome) || outcome.status !== status) {
      throw new Error(`${method} ${path}: expected ${status}, got ${JSON.stringify(isAnswer(outcome) ? { status: outcome.status, body: outcome.body } : outcome)}`);
    }
    return outcome.body.data;
  }
}

/** A merchant with a test-mode key holding every scope, made through the admin API of a running service. */
export async function createMerchant(admin: HttpClient, plan: string, name: string): Promise<{ merchantId: string; key: string }> {
  const merchant = await admin.expectData<{ id: string }>(201, 'POST', '/admin/v1/merchants', { name, plan });
  const key = await admin.expectData<{ key: string }>(201, 'POST', `/admin/v1/merchants/${merchant.id}/api-keys`, { mode: 'test', scopes: ['*'] });
  return { merchantId: merchant.id, key: key.key };
}

/**
 * A FILE-delivered product with one confirmed file of `bytes` bytes on local storage. The upload URL
 * names PUBLIC_BASE_URL's origin; the bytes go to the service's own address with the same path and token.
 */
export async function createFileProduct(client: HttpClient, bytes: number): Promise<{ productId: string; fileId: string }> {
  const product = await client.expectData<{ id: string }>(201, 'POST', '/v1/products', { name: 'Fault-test download', entitlement_type: 'permanent' });
  const upload = await client.expectData<{ file_id: string; upload_url: string; upload_headers: Record<string, string> }>(201, 'POST', '/v1/files/upload-url', {
    file_name: 'guide.pdf',
    file_size: bytes,
    mime_type: 'application/pdf',
    product_id: product.id,
  });
  const uploadUrl = new URL(upload.upload_url);
  const put = await globalThis.fetch(`${client.baseUrl}${uploadUrl.pathname}${uploadUrl.search}`, {
    method: 'PUT',
    headers: upload.upload_headers,
    body: Buffer.alloc(bytes, 7),
  });
  if (put.status >= 300) throw new Error(`upload PUT answered ${put.status}: ${await put.text()}`);
  await client.expectData(200, 'POST', `/v1/files/${upload.file_id}/confirm`);
  return { productId: product.id, fileId: upload.file_id };
}
