import { Injectable } from '@nestjs/common';
import { runAlone, WritePart } from '../database/combined-statement';
import type { Tenant } from '../database/tenant';
import { assertTenant } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';

export interface StoredResponse {
  requestHash: string;
  status: number;
  body: unknown;
}

interface StoredRow {
  request_hash: string;
  response_status: number;
  response_body: unknown;
}

/** SQL of the idempotency_keys table: single statements, each scoped to the tenant. */
@Injectable()
export class IdempotencyKeysRepository {
  /** The committed response stored under the key, read outside any transaction. */
  async find(db: Reader, tenant: Tenant, key: string): Promise<StoredResponse | null> {
    assertTenant(tenant);
    const rows: StoredRow[] = await db.manager.query(
      `SELECT request_hash, response_status, response_body
       FROM idempotency_keys WHERE merchant_id = $1 AND mode = $2 AND key = $3`,
      [tenant.merchantId, tenant.mode, key],
    );
    const [row] = rows;
    return row ? { requestHash: row.request_hash, status: row.response_status, body: row.response_body } : null;
  }

  /**
   * Takes the key in `tx`: false when it is taken. A concurrent transaction that inserted it first
   * makes this statement wait on the primary key until that one commits (then false) or rolls
   * back (then this one takes it).
   */
  async claim(tx: Transaction, tenant: Tenant, key: string, requestHash: string, status: number, now: Date): Promise<boolean> {
    assertTenant(tenant);
    const rows: unknown[] = await tx.manager.query(
      `INSERT INTO idempotency_keys (merchant_id, mode, key, request_hash, response_status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (merchant_id, mode, key) DO NOTHING
       RETURNING key`,
      [tenant.merchantId, tenant.mode, key, requestHash, status, now],
    );
    return rows.length === 1;
  }

  /**
   * Stores the response of the key claimed in the same transaction, as a part of the transaction's
   * closing statement.
   */
  storeResponsePart(tenant: Tenant, key: string, body: unknown, status: number): WritePart {
    assertTenant(tenant);
    return {
      name: 'idempotency_response',
      render: (parameters) =>
        `UPDATE idempotency_keys SET response_body = ${parameters.json(body)}, response_status = ${parameters.integer(status)}
          WHERE merchant_id = ${parameters.text(tenant.merchantId)} AND mode = ${parameters.text(tenant.mode)} AND key = ${parameters.text(key)}`,
    };
  }

  /**
   * Records the response of a request that wrote nothing to the database in one statement; false
   * when the key was taken meanwhile. One statement, so `db` is the pool (no transaction to join).
   */
  async insertCompleted(db: Reader, tenant: Tenant, key: string, response: StoredResponse, now: Date): Promise<boolean> {
    const rows = await runAlone(db.manager, this.insertCompletedPart(tenant, key, response, now));
    return rows.length === 1;
  }

  /**
   * insertCompleted as a part of a combined write: the key and its response in one insert, the
   * whole statement refused (`refusal`) when the key is taken. A concurrent request holding it makes
   * the statement wait on the primary key until that one commits (then refused) or rolls back.
   */
  insertCompletedPart(tenant: Tenant, key: string, response: StoredResponse, now: Date, refusal?: string): WritePart {
    assertTenant(tenant);
    return {
      name: 'idempotency_key',
      render: (parameters) =>
        `INSERT INTO idempotency_keys (merchant_id, mode, key, request_hash, response_status, response_body, created_at)
          VALUES (${parameters.text(tenant.merchantId)}, ${parameters.text(tenant.mode)}, ${parameters.text(key)}, ${parameters.text(response.requestHash)},
            ${parameters.integer(response.status)}, ${parameters.json(response.body)}, ${parameters.timestamptz(now)})
          ON CONFLICT (merchant_id, mode, key) DO NOTHING
          RETURNING key`,
      ...(refusal === undefined ? {} : { refusal }),
    };
  }

  /** Maintenance across all tenants: deletes up to `limit` keys created before the cutoff, oldest first; returns how many. */
  async deleteCreatedBefore(tx: Transaction, cutoff: Date, limit: number): Promise<number> {
    const [, affected]: [unknown, number] = await tx.manager.query(`DELETE FROM idempotency_keys WHERE (merchant_id, mode, key) IN (${DUE_IDEMPOTENCY_KEYS})`, [cutoff, limit]);
    return affected ?? 0;
  }
}

/** Keys past the cutoff ($1), oldest first, at most $2, by idempotency_keys_created_idx; rows a request holds are skipped. */
export const DUE_IDEMPOTENCY_KEYS = `SELECT merchant_id, mode, key FROM idempotency_keys WHERE created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED`;
