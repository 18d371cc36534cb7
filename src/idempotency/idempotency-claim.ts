import type { Tenant } from '../database/tenant';
import type { WritePart } from '../database/combined-statement';
import type { IdempotencyClaim } from '../database/operation';
import type { Transaction } from '../database/transaction';
import { envelopeOf } from '../envelope/envelope';
import { StatusResult } from '../envelope/status-result';
import type { IdempotencyKeysRepository } from './idempotency-keys.repository';

/** The refusal of a combined write whose key another request took first. */
const KEY_TAKEN = 'idempotency_key_taken';

/** The key was taken by another request that committed first: roll back and replay its response. */
export class IdempotencyKeyTakenError extends Error {
  constructor(readonly key: string) {
    super(`Idempotency key '${key}' was taken by a concurrent request`);
  }
}

export interface ClaimedRequest {
  tenant: Tenant;
  key: string;
  requestHash: string;
  /** The request id, for the stored envelope's meta. */
  requestId: string;
  /** The route's success status (201 for POST unless the route says otherwise). */
  status: number;
}

/**
 * One request's claim on its Idempotency-Key, written inside the transaction UnitOfWork opens for
 * the request: the key row is the first statement, the complete response (status and the enveloped
 * body) part of the last, before the commit. A crash before the commit leaves nothing, so a retry runs once; after it, the
 * retry replays.
 */
export class RequestIdempotencyClaim implements IdempotencyClaim {
  private used = false;
  /** The stored response, once the transaction's last statement wrote it; what the client gets. */
  response: { status: number; body: unknown } | null = null;

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    readonly request: ClaimedRequest,
    private readonly now: () => Date,
  ) {}

  /** True once a transaction took (or tried to take) the key. */
  get acquired(): boolean {
    return this.used;
  }

  async acquire(tx: Transaction): Promise<void> {
    // One request is one transaction: a second one would find its own key taken.
    if (this.used) throw new Error('An idempotent request may open only one transaction with its claim');
    this.used = true;
    const { tenant, key, requestHash, status } = this.request;
    if (!(await this.keys.claim(tx, tenant, key, requestHash, status, this.now()))) throw new IdempotencyKeyTakenError(key);
  }

  takenWithResponsePart(result: unknown): WritePart {
    if (this.used) throw new Error('An idempotent request may write only once with its claim');
    this.used = true;
    const { tenant, key, requestHash } = this.request;
    const response = this.responseOf(result);
    this.response = response;
    return this.keys.insertCompletedPart(tenant, key, { requestHash, ...response }, this.now(), KEY_TAKEN);
  }

  rolledBack(): void {
    this.used = false;
    this.response = null;
  }

  completionPart(result: unknown): WritePart {
    const { status, body } = this.responseOf(result);
    this.response = { status, body };
    return this.keys.storeResponsePart(this.request.tenant, this.request.key, body, status);
  }

  /** The complete response stored under the key: the enveloped body and its status. */
  private responseOf(result: unknown): { status: number; body: unknown } {
    // An upsert decides its status as it runs: the replay must answer with that one.
    return { status: result instanceof StatusResult ? result.status : this.request.status, body: envelopeOf(result, this.request.requestId) };
  }
}
