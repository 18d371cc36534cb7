import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import type { IdempotencyKeyState } from './idempotency-key.entity';

export interface StoredIdempotencyKey {
  requestHash: string;
  state: IdempotencyKeyState;
  lockToken: string;
  lockedAt: Date;
  responseStatus: number | null;
  responseBody: unknown;
}

interface StoredRow {
  request_hash: string;
  state: IdempotencyKeyState;
  lock_token: string;
  locked_at: Date;
  response_status: number | null;
  response_body: unknown;
}

/**
 * SQL of the idempotency_keys table. Each statement is a single conditional write, so claims,
 * take-overs and completions are race-free without holding a transaction open while the
 * request runs.
 */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Claims the key for a new request; false when a row for it already exists. */
  async tryClaim(tenant: Tenant, key: string, requestHash: string, lockToken: string, now: Date): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO idempotency_keys (merchant_id, mode, key, request_hash, state, lock_token, locked_at, created_at)
       VALUES ($1, $2, $3, $4, 'in_progress', $5, $6, $6)
       ON CONFLICT (merchant_id, mode, key) DO NOTHING
       RETURNING key`,
      [tenant.merchantId, tenant.mode, key, requestHash, lockToken, now],
    );
    return rows.length === 1;
  }

  async find(tenant: Tenant, key: string): Promise<StoredIdempotencyKey | null> {
    const rows: StoredRow[] = await this.dataSource.query(
      `SELECT request_hash, state, lock_token, locked_at, response_status, response_body
       FROM idempotency_keys WHERE merchant_id = $1 AND mode = $2 AND key = $3`,
      [tenant.merchantId, tenant.mode, key],
    );
    const [row] = rows;
    if (!row) return null;
    return {
      requestHash: row.request_hash,
      state: row.state,
      lockToken: row.lock_token,
      lockedAt: new Date(row.locked_at),
      responseStatus: row.response_status,
      responseBody: row.response_body,
    };
  }

  /** Takes over an abandoned in-progress claim; false when someone else changed it first. */
  async takeOver(tenant: Tenant, key: string, previousToken: string, lockToken: string, now: Date): Promise<boolean> {
    const affected = await this.execute(
      `UPDATE idempotency_keys SET lock_token = $5, locked_at = $6
       WHERE merchant_id = $1 AND mode = $2 AND key = $3 AND state = 'in_progress' AND lock_token = $4`,
      [tenant.merchantId, tenant.mode, key, previousToken, lockToken, now],
    );
    return affected === 1;
  }

  /** Stores the response of the owner's request; false when the claim is no longer the owner's. */
  async complete(tenant: Tenant, key: string, lockToken: string, status: number, body: unknown): Promise<boolean> {
    const affected = await this.execute(
      `UPDATE idempotency_keys SET state = 'completed', response_status = $5, response_body = $6::json
       WHERE merchant_id = $1 AND mode = $2 AND key = $3 AND state = 'in_progress' AND lock_token = $4`,
      [tenant.merchantId, tenant.mode, key, lockToken, status, JSON.stringify(body ?? null)],
    );
    return affected === 1;
  }

  /** Forgets the owner's in-progress claim (its request failed), so the key can be used again. */
  async release(tenant: Tenant, key: string, lockToken: string): Promise<void> {
    await this.execute(
      `DELETE FROM idempotency_keys
       WHERE merchant_id = $1 AND mode = $2 AND key = $3 AND state = 'in_progress' AND lock_token = $4`,
      [tenant.merchantId, tenant.mode, key, lockToken],
    );
  }

  /**
   * Maintenance across all tenants (the one tenant-free statement here): deletes keys created
   * before the cutoff. Returns how many were deleted.
   */
  async deleteCreatedBefore(cutoff: Date): Promise<number> {
    return this.execute('DELETE FROM idempotency_keys WHERE created_at < $1', [cutoff]);
  }

  /** Runs an UPDATE or DELETE and returns the number of rows it changed. */
  private async execute(sql: string, parameters: unknown[]): Promise<number> {
    const runner = this.dataSource.createQueryRunner();
    try {
      const result = await runner.query(sql, parameters, true);
      return result.affected ?? 0;
    } finally {
      await runner.release();
    }
  }
}
