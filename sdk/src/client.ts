import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { ApiError } from './api-error';
import type { Writable } from 'openapi-typescript-helpers';
import type { components, operations, paths } from './generated/openapi';

export type Schemas = components['schemas'];

/** Query parameters of an operation, by operationId (`Query<'entitlements.check'>`). */
export type Query<OperationId extends keyof operations> = NonNullable<operations[OperationId]['parameters']['query']>;

/** JSON request body of an operation, by operationId. */
export type Body<OperationId extends keyof operations> = operations[OperationId] extends {
  requestBody?: { content: { 'application/json': infer Content } };
}
  ? Writable<Content>
  : never;

export interface ClientOptions {
  /** Where the API answers, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** `eh_test_…` or `eh_live_…`: sent on every /v1 route. */
  apiKey?: string;
  /** The deployment's ADMIN_TOKEN: sent on /admin routes only. */
  adminToken?: string;
  /** Makes the Idempotency-Key of writes without one; a random UUID by default. */
  newIdempotencyKey?: () => string;
  /** A fetch to use instead of the global one (tests, proxies, retries). */
  fetch?: (request: Request) => Promise<Response>;
}

/** Per-call options of a write. */
export interface WriteOptions {
  /** Reuse a key to retry this write safely; by default every call gets a fresh one. */
  idempotencyKey?: string;
}

const IDEMPOTENCY_KEY = 'Idempotency-Key';

/** Each request carries the credential its route expects, and each write an Idempotency-Key. */
function authenticationAndIdempotency(options: ClientOptions): Middleware {
  const newKey = options.newIdempotencyKey ?? (() => globalThis.crypto.randomUUID());
  return {
    onRequest({ request, schemaPath }) {
      const credential = schemaPath.startsWith('/admin/') ? options.adminToken : options.apiKey;
      if (credential && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${credential}`);
      // The service makes every POST under /v1 idempotent: a retry with the same key never acts twice.
      if (request.method === 'POST' && schemaPath.startsWith('/v1/') && !request.headers.has(IDEMPOTENCY_KEY)) {
        request.headers.set(IDEMPOTENCY_KEY, newKey());
      }
      return request;
    },
  };
}

/** Returns the success body, or throws ApiError with the error body's code. */
async function send<Result extends { data?: unknown; error?: unknown; response: Response }>(
  request: Promise<Result>,
): Promise<NonNullable<Result['data']>> {
  const { data, error, response } = await request;
  if (!response.ok) throw ApiError.fromResponse(response, error);
  return data as NonNullable<Result['data']>;
}

function idempotency(options: WriteOptions | undefined): { 'Idempotency-Key'?: string } {
  return options?.idempotencyKey ? { [IDEMPOTENCY_KEY]: options.idempotencyKey } : {};
}

/**
 * A typed client: each method is one operation of openapi.json, named by its operationId
 * (`client.entitlements.check` is `entitlements.check`), and returns the response's envelope
 * (`{ data, meta, pagination? }`). `client.raw` is the underlying openapi-fetch client.
 */
export function createEntitlementDeliveryClient(options: ClientOptions) {
  const raw: Client<paths> = createClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  raw.use(authenticationAndIdempotency(options));
  const fetchImplementation = options.fetch ?? ((request: Request) => globalThis.fetch(request));

  const entitlements = {
    check: (query: Query<'entitlements.check'>) => send(raw.GET('/v1/entitlements/check', { params: { query } })),
    list: (query: Query<'entitlements.list'>) => send(raw.GET('/v1/entitlements', { params: { query } })),
    create: (body: Body<'entitlements.create'>, write?: WriteOptions) =>
      send(raw.POST('/v1/entitlements', { body, params: { header: idempotency(write) } })),
    get: (entitlementId: string) => send(raw.GET('/v1/entitlements/{entitlement_id}', { params: { path: { entitlement_id: entitlementId } } })),
    update: (entitlementId: string, body: Body<'entitlements.update'>) =>
      send(raw.PATCH('/v1/entitlements/{entitlement_id}', { params: { path: { entitlement_id: entitlementId } }, body })),
    revoke: (entitlementId: string, body?: Body<'entitlements.revoke'>, write?: WriteOptions) =>
      send(raw.POST('/v1/entitlements/{entitlement_id}/revoke', { params: { path: { entitlement_id: entitlementId }, header: idempotency(write) }, body })),
    suspend: (entitlementId: string, body?: Body<'entitlements.suspend'>, write?: WriteOptions) =>
      send(raw.POST('/v1/entitlements/{entitlement_id}/suspend', { params: { path: { entitlement_id: entitlementId }, header: idempotency(write) }, body })),
    reactivate: (entitlementId: string, body?: Body<'entitlements.reactivate'>, write?: WriteOptions) =>
      send(
        raw.POST('/v1/entitlements/{entitlement_id}/reactivate', { params: { path: { entitlement_id: entitlementId }, header: idempotency(write) }, body }),
      ),
    activate: (entitlementId: string, write?: WriteOptions) =>
      send(raw.POST('/v1/entitlements/{entitlement_id}/activate', { params: { path: { entitlement_id: entitlementId }, header: idempotency(write) } })),
    recordUsage: (entitlementId: string, body?: Body<'entitlements.recordUsage'>, write?: WriteOptions) =>
      send(raw.POST('/v1/entitlements/{entitlement_id}/usage', { params: { path: { entitlement_id: entitlementId }, header: idempotency(write) }, body })),
    issueToken: (entitlementId: string, write?: WriteOptions) =>
      send(raw.POST('/v1/entitlements/{entitlement_id}/token', { params: { path: { entitlement_id: entitlementId }, header: idempotency(write) } })),
    getSigningKeys: () => send(raw.GET('/.well-known/jwks.json')),
  };

  const products = {
    list: (query: Query<'products.list'> = {}) => send(raw.GET('/v1/products', { params: { query } })),
    create: (body: Body<'products.create'>, write?: WriteOptions) => send(raw.POST('/v1/products', { body, params: { header: idempotency(write) } })),
    get: (productId: string) => send(raw.GET('/v1/products/{product_id}', { params: { path: { product_id: productId } } })),
    update: (productId: string, body: Body<'products.update'>) =>
      send(raw.PATCH('/v1/products/{product_id}', { params: { path: { product_id: productId } }, body })),
    archive: (productId: string) => send(raw.DELETE('/v1/products/{product_id}', { params: { path: { product_id: productId } } })),
  };

  const customers = {
    listEntitlements: (customerId: string, query: Query<'customers.listEntitlements'> = {}) =>
      send(raw.GET('/v1/customers/{customer_id}/entitlements', { params: { path: { customer_id: customerId }, query } })),
    listEntitlementsByStoreId: (storeCustomerId: string, query: Query<'customers.listEntitlementsByStoreId'> = {}) =>
      send(raw.GET('/v1/customers/store/{store_customer_id}/entitlements', { params: { path: { store_customer_id: storeCustomerId }, query } })),
    listDownloads: (customerId: string, query: Query<'customers.listDownloads'> = {}) =>
      send(raw.GET('/v1/customers/{customer_id}/downloads', { params: { path: { customer_id: customerId }, query } })),
  };

  const files = {
    createUploadUrl: (body: Body<'files.createUploadUrl'>, write?: WriteOptions) =>
      send(raw.POST('/v1/files/upload-url', { body, params: { header: idempotency(write) } })),
    confirm: (fileId: string, write?: WriteOptions) =>
      send(raw.POST('/v1/files/{file_id}/confirm', { params: { path: { file_id: fileId }, header: idempotency(write) } })),
    /** The three steps in one: upload URL, PUT of the bytes with the headers it names, confirm. */
    upload: async (body: Body<'files.createUploadUrl'>, content: Blob | ArrayBuffer | Uint8Array | string) => {
      const { data: upload } = await files.createUploadUrl(body);
      const response = await fetchImplementation(new Request(upload.upload_url, { method: 'PUT', headers: upload.upload_headers, body: content as BodyInit }));
      if (!response.ok) throw ApiError.fromResponse(response, await response.json().catch(() => null));
      return files.confirm(upload.file_id);
    },
    download: (fileId: string, query: Query<'files.download'>) =>
      send(raw.GET('/v1/files/{file_id}/download', { params: { path: { file_id: fileId }, query } })),
    get: (fileId: string) => send(raw.GET('/v1/files/{file_id}', { params: { path: { file_id: fileId } } })),
    list: (query: Query<'files.list'> = {}) => send(raw.GET('/v1/files', { params: { query } })),
  };

  const events = {
    list: (query: Query<'events.list'> = {}) => send(raw.GET('/v1/events', { params: { query } })),
    get: (eventId: string) => send(raw.GET('/v1/events/{event_id}', { params: { path: { event_id: eventId } } })),
    redeliver: (eventId: string, body?: Body<'events.redeliver'>, write?: WriteOptions) =>
      send(raw.POST('/v1/events/{event_id}/redeliver', { params: { path: { event_id: eventId }, header: idempotency(write) }, body: body as Body<'events.redeliver'> })),
  };

  const webhookEndpoints = {
    create: (body: Body<'webhookEndpoints.create'>, write?: WriteOptions) =>
      send(raw.POST('/v1/webhook-endpoints', { body, params: { header: idempotency(write) } })),
    list: (query: Query<'webhookEndpoints.list'> = {}) => send(raw.GET('/v1/webhook-endpoints', { params: { query } })),
    get: (endpointId: string) => send(raw.GET('/v1/webhook-endpoints/{endpoint_id}', { params: { path: { endpoint_id: endpointId } } })),
    update: (endpointId: string, body: Body<'webhookEndpoints.update'>) =>
      send(raw.PATCH('/v1/webhook-endpoints/{endpoint_id}', { params: { path: { endpoint_id: endpointId } }, body })),
    delete: (endpointId: string) => send(raw.DELETE('/v1/webhook-endpoints/{endpoint_id}', { params: { path: { endpoint_id: endpointId } } })),
    rotateSecret: (endpointId: string, write?: WriteOptions) =>
      send(raw.POST('/v1/webhook-endpoints/{endpoint_id}/rotate-secret', { params: { path: { endpoint_id: endpointId }, header: idempotency(write) } })),
    listDeliveries: (endpointId: string, query: Query<'webhookEndpoints.listDeliveries'> = {}) =>
      send(raw.GET('/v1/webhook-endpoints/{endpoint_id}/deliveries', { params: { path: { endpoint_id: endpointId }, query } })),
  };

  const admin = {
    createMerchant: (body: Body<'admin.createMerchant'>) => send(raw.POST('/admin/v1/merchants', { body })),
    getMerchant: (merchantId: string) => send(raw.GET('/admin/v1/merchants/{merchant_id}', { params: { path: { merchant_id: merchantId } } })),
    updateMerchant: (merchantId: string, body: Body<'admin.updateMerchant'>) =>
      send(raw.PATCH('/admin/v1/merchants/{merchant_id}', { params: { path: { merchant_id: merchantId } }, body })),
    createApiKey: (merchantId: string, body: Body<'admin.createApiKey'>) =>
      send(raw.POST('/admin/v1/merchants/{merchant_id}/api-keys', { params: { path: { merchant_id: merchantId } }, body })),
    listApiKeys: (merchantId: string) => send(raw.GET('/admin/v1/merchants/{merchant_id}/api-keys', { params: { path: { merchant_id: merchantId } } })),
    revokeApiKey: (apiKeyId: string) => send(raw.DELETE('/admin/v1/api-keys/{api_key_id}', { params: { path: { api_key_id: apiKeyId } } })),
    getUsage: (merchantId: string) => send(raw.GET('/admin/v1/merchants/{merchant_id}/usage', { params: { path: { merchant_id: merchantId } } })),
  };

  const health = {
    live: () => send(raw.GET('/health/live')),
    ready: () => send(raw.GET('/health/ready')),
  };

  return { entitlements, products, customers, files, events, webhookEndpoints, admin, health, raw };
}

export type EntitlementDeliveryClient = ReturnType<typeof createEntitlementDeliveryClient>;
