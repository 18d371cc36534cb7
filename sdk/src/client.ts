import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { ApiError } from './api-error';
import { OPERATIONS, type FilesOperations, type OperationGroups, type OperationId } from './generated/operations';
import type { paths } from './generated/openapi';
import type { OperationDescription } from './operation-description';
import type { ApiResult, Body, RequestOptions } from './operation-types';
import { LazyPagePromise } from './pagination';
import { responseInfoOf, withResponseInfo, type ResponseInfo } from './response-info';
import { publishedIssuer, verifyEntitlementToken, type EntitlementTokenClaims, type VerifyEntitlementTokenOptions } from './tokens';
import { DEFAULT_RETRY_POLICY, sendWithRetries, type FetchFunction, type RetryPolicy } from './transport';
import { signWebhook, verifyWebhook } from './webhooks';

export interface ClientOptions extends Partial<RetryPolicy> {
  /** Where the API answers, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** `eh_test_…` or `eh_live_…`: sent on every /v1 route. */
  apiKey?: string;
  /** The deployment's ADMIN_TOKEN: sent on /admin routes only. */
  adminToken?: string;
  /** Makes the Idempotency-Key of writes without one; a random UUID by default. */
  newIdempotencyKey?: () => string;
  /** A fetch to use instead of the global one (tests, proxies). Retries and timeouts wrap it. */
  fetch?: FetchFunction;
}

/** `client.files`: the generated operations plus the three upload steps in one call. */
export interface FilesGroup extends FilesOperations {
  /** Upload URL, PUT of the bytes with the headers it names, confirm: the confirmed file. */
  upload(
    body: Body<'files.createUploadUrl'>,
    content: Blob | ArrayBuffer | Uint8Array | string,
    options?: RequestOptions,
  ): Promise<ApiResult<'files.confirm'>>;
}

/** `client.tokens`: offline verification of entitlement tokens against this service's keys. */
export interface TokensHelper {
  /**
   * verifyEntitlementToken with this client's service as the default key set
   * (`{baseUrl}/.well-known/jwks.json`) and issuer: the one the service publishes
   * (`{baseUrl}/.well-known/entitlement-token-issuer.json`, its PUBLIC_BASE_URL, read once), so a
   * client on `http://127.0.0.1:3000` verifies tokens signed as `http://localhost:3000`.
   */
  verify(token: string, options: Omit<VerifyEntitlementTokenOptions, 'jwks'> & { jwks?: VerifyEntitlementTokenOptions['jwks'] }): Promise<EntitlementTokenClaims>;
}

/** `client.webhooks`: Standard Webhooks verification of a delivery (see verifyWebhook), and signing for tests (signWebhook). */
export interface WebhooksHelper {
  verify: typeof verifyWebhook;
  sign: typeof signWebhook;
}

/**
 * The typed client: one group per operationId prefix of openapi.json (`client.entitlements.check`
 * is `entitlements.check`), generated with the document, so every operation is here. `raw` is the
 * underlying openapi-fetch client, by path; it sends the same credentials and keys and throws the
 * same ApiError.
 */
export interface EntitlementDeliveryClient extends OperationGroups {
  files: FilesGroup;
  tokens: TokensHelper;
  webhooks: WebhooksHelper;
  raw: Client<paths>;
}

const IDEMPOTENCY_KEY = 'Idempotency-Key';
const BODY_IDEMPOTENCY_FIELD = 'idempotency_key';

type Operation = OperationDescription & { id: string };
const OPERATION_BY_ROUTE = new Map<string, Operation>(
  Object.entries(OPERATIONS).map(([id, operation]) => [`${operation.method} ${operation.path}`, { ...operation, id }]),
);

async function bodyIdempotencyKey(request: Request): Promise<string | null> {
  if (!request.headers.get('content-type')?.includes('json')) return null;
  const body: unknown = await request.clone().json().catch(() => null);
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[BODY_IDEMPOTENCY_FIELD] : undefined;
  return typeof value === 'string' && value !== '' ? value : null;
}

async function parsedBody(response: Response): Promise<unknown> {
  const text = await response.clone().text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Each request carries the credential its operation declares and, when the operation takes one,
 * an Idempotency-Key: the caller's, else the body's `idempotency_key` (the service refuses two
 * different keys), else a fresh one. Every non-2xx answer becomes an ApiError, for `raw` too.
 */
function operationMiddleware(options: ClientOptions, infoByResponse: WeakMap<Response, ResponseInfo>): Middleware {
  const newKey = options.newIdempotencyKey ?? (() => globalThis.crypto.randomUUID());
  return {
    async onRequest({ request, schemaPath }) {
      const operation = OPERATION_BY_ROUTE.get(`${request.method} ${schemaPath}`);
      const credential = operation?.credential === 'adminToken' ? options.adminToken : operation?.credential === 'apiKey' ? options.apiKey : undefined;
      if (credential && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${credential}`);
      if (operation && operation.idempotency !== 'none' && !request.headers.has(IDEMPOTENCY_KEY)) {
        const fromBody = operation.idempotency === 'headerOrBody' ? await bodyIdempotencyKey(request) : null;
        request.headers.set(IDEMPOTENCY_KEY, fromBody ?? newKey());
      }
      return request;
    },
    async onResponse({ request, response }) {
      const info = responseInfoOf(request, response);
      infoByResponse.set(response, info);
      if (!response.ok) throw ApiError.from(info, await parsedBody(response));
      return undefined;
    },
  };
}

/** The loosely typed call the generic methods make (the typed surface is the generated interfaces). */
type RequestCall = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; response: Response }>;

/** Creates the client. Options: see ClientOptions (retries and timeouts default to DEFAULT_RETRY_POLICY). */
export function createEntitlementDeliveryClient(options: ClientOptions): EntitlementDeliveryClient {
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    timeout: options.timeout ?? DEFAULT_RETRY_POLICY.timeout,
    initialRetryDelay: options.initialRetryDelay ?? DEFAULT_RETRY_POLICY.initialRetryDelay,
    maxRetryDelay: options.maxRetryDelay ?? DEFAULT_RETRY_POLICY.maxRetryDelay,
    maxRetryAfter: options.maxRetryAfter ?? DEFAULT_RETRY_POLICY.maxRetryAfter,
  };
  const fetchFunction: FetchFunction = options.fetch ?? ((request) => globalThis.fetch(request));
  const transport = (overrides: RequestOptions = {}): FetchFunction => {
    const attemptPolicy: RetryPolicy = {
      ...policy,
      ...(overrides.maxRetries !== undefined ? { maxRetries: overrides.maxRetries } : {}),
      ...(overrides.timeout !== undefined ? { timeout: overrides.timeout } : {}),
    };
    return (request) => sendWithRetries(request, attemptPolicy, fetchFunction);
  };
  const infoByResponse = new WeakMap<Response, ResponseInfo>();
  const raw: Client<paths> = createClient<paths>({ baseUrl, fetch: transport() });
  raw.use(operationMiddleware(options, infoByResponse));
  const request = raw.request as unknown as RequestCall;

  async function send(operation: OperationDescription, path: Record<string, string>, query: unknown, body: unknown, callOptions: RequestOptions = {}) {
    const headers: Record<string, string> = { ...callOptions.headers };
    if (callOptions.idempotencyKey) headers[IDEMPOTENCY_KEY] = callOptions.idempotencyKey;
    const csv = typeof body === 'string' && operation.contentTypes.includes('text/csv');
    if (csv) headers['Content-Type'] = 'text/csv';
    const { data, response } = await request(operation.method, operation.path, {
      params: { path, ...(query !== undefined ? { query } : {}) },
      ...(body !== undefined ? { body } : {}),
      ...(csv ? { bodySerializer: (text: string) => text } : {}),
      headers,
      ...(callOptions.signal ? { signal: callOptions.signal } : {}),
      fetch: transport(callOptions),
    });
    const info = infoByResponse.get(response);
    return info ? withResponseInfo(data, info) : data;
  }

  /** One method of the table: `(…path ids, input?, options?)`, the list ones lazy and iterable. */
  function method(operation: OperationDescription) {
    return (...args: unknown[]) => {
      const ids = args.slice(0, operation.pathParameters.length) as string[];
      const path = Object.fromEntries(operation.pathParameters.map((name, index) => [name, ids[index] ?? '']));
      const input = operation.input === 'none' ? undefined : args[operation.pathParameters.length];
      const callOptions = args[operation.pathParameters.length + (operation.input === 'none' ? 0 : 1)] as RequestOptions | undefined;
      const split = operation.input === 'queryAndBody' ? ((input ?? {}) as { query?: unknown; body?: unknown }) : null;
      const query = split ? split.query : operation.input === 'query' ? input : undefined;
      const body = split ? split.body : operation.input === 'body' ? input : undefined;
      if (!operation.paginated) return send(operation, path, query, body, callOptions);
      const filters = (query ?? {}) as Record<string, unknown>;
      return new LazyPagePromise(async (cursor, pageSize) => {
        const pageQuery = {
          ...filters,
          ...(cursor ? { cursor } : {}),
          ...(pageSize !== null && filters.limit === undefined ? { limit: pageSize } : {}),
        };
        return (await send(operation, path, pageQuery, body, callOptions)) as { data: unknown[]; pagination: { next_cursor: string | null } };
      });
    };
  }

  const groups: Record<string, Record<string, unknown>> = {};
  for (const operation of Object.values(OPERATIONS) as OperationDescription[]) {
    groups[operation.group] ??= {};
    (groups[operation.group] as Record<string, unknown>)[operation.name] = method(operation);
  }
  const client = groups as unknown as EntitlementDeliveryClient;

  client.files.upload = async (body, content, uploadOptions) => {
    const { data: upload } = await client.files.createUploadUrl(body, uploadOptions);
    // The bytes go to the storage URL the service named (its own, or S3's), with the headers it requires.
    const put = new Request(upload.upload_url, { method: 'PUT', headers: upload.upload_headers, body: content as BodyInit, ...(uploadOptions?.signal ? { signal: uploadOptions.signal } : {}) });
    const response = await transport({ ...uploadOptions, maxRetries: uploadOptions?.maxRetries ?? policy.maxRetries })(put);
    if (!response.ok) throw ApiError.from(responseInfoOf(put, response), await parsedBody(response));
    // A key of its own for the confirm (one key names one request): derived, so a retried upload confirms once.
    const { idempotencyKey, ...confirmOptions } = uploadOptions ?? {};
    return client.files.confirm(upload.file_id, { ...confirmOptions, ...(idempotencyKey ? { idempotencyKey: `${idempotencyKey}:confirm` } : {}) });
  };
  client.tokens = {
    verify: async (token, verifyOptions) =>
      verifyEntitlementToken(token, {
        ...verifyOptions,
        jwks: verifyOptions.jwks ?? `${baseUrl}/.well-known/jwks.json`,
        // Keys given another way: the issuer is still this client's service's.
        ...(verifyOptions.issuer || verifyOptions.jwks === undefined ? {} : { issuer: await publishedIssuer(baseUrl) }),
      }),
  };
  client.webhooks = { verify: verifyWebhook, sign: signWebhook };
  client.raw = raw;
  return client;
}

export type { OperationId };
