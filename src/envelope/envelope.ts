import { PageResult, Pagination } from './page-result';
import { StatusResult } from './status-result';

export interface Envelope<T> {
  data: T;
  meta: { request_id: string; timestamp: string };
  pagination?: Pagination;
}

/**
 * The response envelope of a handler's result. Built by the envelope interceptor for every
 * response, and inside the transaction for an idempotent write, whose stored response must be
 * exactly the one its client gets.
 */
export function envelopeOf(result: unknown, requestId: string): Envelope<unknown> {
  if (result instanceof StatusResult) return envelopeOf(result.body, requestId);
  const meta = { request_id: requestId, timestamp: new Date().toISOString() };
  if (result instanceof PageResult) return { data: result.items, meta, pagination: result.pagination };
  return { data: result, meta };
}
