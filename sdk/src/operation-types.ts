import type { ApiError, ApiErrorCode, UNEXPECTED_RESPONSE } from './api-error';
import type { OperationId, OperationTypes } from './generated/operations';
import type { ResponseInfo } from './response-info';

export type { OperationId };

/** Query parameters of an operation, by operationId (`Query<'entitlements.check'>`). */
export type Query<Id extends OperationId> = OperationTypes[Id]['query'];

/** Request body of an operation, by operationId (a CSV string where the operation takes `text/csv`). */
export type Body<Id extends OperationId> = OperationTypes[Id]['body'];

/** The success body of an operation: for /v1 routes the envelope `{ data, meta, pagination? }`. */
export type ResponseBody<Id extends OperationId> = OperationTypes[Id]['response'];

/** One item of a paginated operation's `data`. */
export type PageItem<Id extends OperationId> = OperationTypes[Id]['item'];

/** The error codes an operation documents (plus RATE_LIMITED, SERVICE_UNAVAILABLE… which it lists too). */
export type OperationErrorCode<Id extends OperationId> = OperationTypes[Id]['errorCode'];

/** The ApiError an operation throws, its `code` narrowed to the codes it documents. */
export type OperationError<Id extends OperationId> = ApiError<Extract<OperationErrorCode<Id>, ApiErrorCode> | typeof UNEXPECTED_RESPONSE>;

/**
 * What a grouped method resolves to: the response body, plus a non-enumerable `lastResponse`
 * (request id, rate limit, whether it was replayed) that stays out of `JSON.stringify`, spreads and
 * `toEqual`, so `const { data } = await client.products.get(id)` reads as the body alone.
 */
export type ApiResult<Id extends OperationId> = ResponseBody<Id> & { readonly lastResponse: ResponseInfo };

/** Per-call options of every grouped method (each overrides the client's). */
export interface RequestOptions {
  /**
   * The Idempotency-Key of a write. By default every POST that takes one gets a random key (or the
   * body's `idempotency_key`), reused by the SDK's own retries; pass your own to retry safely across
   * processes.
   */
  idempotencyKey?: string;
  /** Milliseconds each attempt may take before it is abandoned (and retried, if it may be). */
  timeout?: number;
  /** Retries after a 429, a 503 or a network error; only for idempotent calls. 0 turns them off. */
  maxRetries?: number;
  /** Cancels the call, including a wait between retries. */
  signal?: AbortSignal;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

/**
 * A paginated list. Await it for the first page (the envelope, with `pagination`), or iterate it
 * with `for await` for every item across pages, fetched one page at a time as you go. Nothing is
 * sent until one of the two starts.
 */
export interface PagePromise<Id extends OperationId> extends Promise<ApiResult<Id>>, AsyncIterable<PageItem<Id>> {
  /** Every item across pages, up to `limit` items (required: a list can be long). */
  toArray(options: { limit: number }): Promise<Array<PageItem<Id>>>;
}
