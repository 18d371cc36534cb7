import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Tenant } from '../database/tenant';
import { UnitOfWork } from '../database/unit-of-work';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { canonicalJson } from './canonical-json';
import { RequestIdempotencyClaim } from './idempotency-claim';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

/** Keys are kept at least this long (DESIGN §4), then pruned. */
export const IDEMPOTENCY_KEY_RETENTION_MILLISECONDS = 24 * 60 * 60 * 1000;

export interface IdempotentRequest {
  tenant: Tenant;
  key: string;
  method: string;
  path: string;
  /** The parsed JSON body; the `idempotency_key` field is left out of the comparison. */
  body: unknown;
}

/** A committed earlier request with the same key and parameters: answer with its response. */
export interface Replay {
  status: number;
  body: unknown;
}

/** The "same parameters" fingerprint: method, path and the canonical body without idempotency_key. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  const parameters =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? Object.fromEntries(Object.entries(body as Record<string, unknown>).filter(([name]) => name !== 'idempotency_key'))
      : (body ?? null);
  return createHash('sha256').update(canonicalJson([method.toUpperCase(), path, parameters])).digest('hex');
}

/**
 * Idempotency-Key semantics (DESIGN §4, §13), free of HTTP: find a committed response to replay,
 * refuse a key reused with other parameters, or hand out the claim the request's transaction
 * records itself with.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** The committed response for this key, or null; 409 IDEMPOTENCY_KEY_CONFLICT for other parameters. */
  async lookup(request: IdempotentRequest): Promise<Replay | null> {
    const stored = await this.keys.find(this.unitOfWork.pool, request.tenant, request.key);
    if (!stored) return null;
    if (stored.requestHash !== requestFingerprint(request.method, request.path, request.body)) {
      throw new ApiError(
        ErrorCode.IDEMPOTENCY_KEY_CONFLICT,
        `Idempotency key '${request.key}' was already used with different parameters; use a new key for a different request`,
      );
    }
    return { status: stored.status, body: stored.body };
  }

  /** The claim a new request runs with; its transaction takes the key and stores the response. */
  claim(request: IdempotentRequest, requestId: string, status: number, now: () => Date = () => new Date()): RequestIdempotencyClaim {
    const requestHash = requestFingerprint(request.method, request.path, request.body);
    return new RequestIdempotencyClaim(this.keys, { tenant: request.tenant, key: request.key, requestHash, requestId, status }, now);
  }

  /**
   * Records the response of a request that opened no transaction (it wrote nothing to the
   * database, so there is no effect to keep it with). False when the key was taken meanwhile.
   */
  recordWithoutTransaction(claim: RequestIdempotencyClaim, body: unknown, now: Date = new Date()): Promise<boolean> {
    const { tenant, key, requestHash, status } = claim.request;
    return this.keys.insertCompleted(this.unitOfWork.pool, tenant, key, { requestHash, status, body }, now);
  }

}
