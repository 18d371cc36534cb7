import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Tenant } from '../auth/tenant';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { canonicalJson } from './canonical-json';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

/** Keys are kept at least this long (DESIGN §4), then pruned. */
export const IDEMPOTENCY_KEY_RETENTION_MILLISECONDS = 24 * 60 * 60 * 1000;
/** How long a second request with an in-progress key waits for the first to finish. */
export const IDEMPOTENCY_WAIT_MILLISECONDS = 10_000;
/** An in-progress claim older than this belongs to a request that died (crash): it may be taken over. */
export const IDEMPOTENCY_ABANDONED_AFTER_MILLISECONDS = 2 * 60 * 1000;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

export interface IdempotentRequest {
  tenant: Tenant;
  key: string;
  method: string;
  path: string;
  /** The parsed JSON body; the `idempotency_key` field is left out of the comparison. */
  body: unknown;
}

export type IdempotencyOutcome =
  /** This request owns the key: run it, then `complete` or `release` with the token. */
  | { kind: 'execute'; lockToken: string }
  /** An earlier request with the same key and parameters finished: answer with its response. */
  | { kind: 'replay'; status: number; body: unknown };

export interface BeginOptions {
  /** The clock (tests inject one). */
  now?: () => Date;
  waitMilliseconds?: number;
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
 * Idempotency-Key semantics (DESIGN §4), free of HTTP: claim a key, wait for a concurrent owner,
 * replay a finished response, or refuse a key reused with other parameters.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly keys: IdempotencyKeysRepository) {}

  async begin(request: IdempotentRequest, options: BeginOptions = {}): Promise<IdempotencyOutcome> {
    const now = options.now ?? (() => new Date());
    const waitMilliseconds = options.waitMilliseconds ?? IDEMPOTENCY_WAIT_MILLISECONDS;
    const requestHash = requestFingerprint(request.method, request.path, request.body);
    const deadline = Date.now() + waitMilliseconds;
    let delay = 20;
    for (;;) {
      const lockToken = randomUUID();
      if (await this.keys.tryClaim(request.tenant, request.key, requestHash, lockToken, now())) {
        return { kind: 'execute', lockToken };
      }
      const stored = await this.keys.find(request.tenant, request.key);
      // Released (the first request failed) between our insert and read: claim it again.
      if (!stored) continue;
      if (stored.requestHash !== requestHash) {
        throw new ApiError(
          ErrorCode.IDEMPOTENCY_KEY_CONFLICT,
          `Idempotency key '${request.key}' was already used with different parameters; use a new key for a different request`,
        );
      }
      if (stored.state === 'completed') {
        return { kind: 'replay', status: stored.responseStatus ?? 200, body: stored.responseBody };
      }
      const abandoned = now().getTime() - stored.lockedAt.getTime() > IDEMPOTENCY_ABANDONED_AFTER_MILLISECONDS;
      if (abandoned && (await this.keys.takeOver(request.tenant, request.key, stored.lockToken, lockToken, now()))) {
        return { kind: 'execute', lockToken };
      }
      if (Date.now() >= deadline) {
        throw new ApiError(
          ErrorCode.IDEMPOTENCY_KEY_CONFLICT,
          `A request with idempotency key '${request.key}' is still in progress; retry it in a few seconds to get its result`,
        );
      }
      await sleep(Math.min(delay, Math.max(1, deadline - Date.now())));
      delay = Math.min(delay * 2, 250);
    }
  }

  /** Records the owner's successful response, replayed to every later request with the key. */
  async complete(tenant: Tenant, key: string, lockToken: string, status: number, body: unknown): Promise<boolean> {
    return this.keys.complete(tenant, key, lockToken, status, body);
  }

  /** The owner's request failed without creating anything: free the key for a retry. */
  async release(tenant: Tenant, key: string, lockToken: string): Promise<void> {
    await this.keys.release(tenant, key, lockToken);
  }

  /** Deletes keys older than the retention; returns how many. */
  async prune(now: Date = new Date()): Promise<number> {
    return this.keys.deleteCreatedBefore(new Date(now.getTime() - IDEMPOTENCY_KEY_RETENTION_MILLISECONDS));
  }
}
