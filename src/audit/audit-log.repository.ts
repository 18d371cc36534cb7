import { Injectable } from '@nestjs/common';
import { Brackets } from 'typeorm';
import type { AuditEntry } from '../database/audit-trail';
import type { WritePart } from '../database/combined-statement';
import type { Tenant } from '../database/tenant';
import { assertTenant } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { generateId } from '../ids/id';
import { fetchPageWithTotal } from '../pagination/keyset';
import type { PageRequest } from '../pagination/page';
import { AuditEntryEntity } from './audit-entry.entity';

export interface AuditFilters {
  actorId?: string;
  objectId?: string;
  action?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}

/**
 * Rows older than $1, oldest first, at most $2, by audit_log_created_idx, skipping rows another
 * transaction holds. Exported so a test can EXPLAIN it.
 */
export const DUE_AUDIT_ENTRIES = `SELECT id FROM audit_log WHERE created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED`;

/** The audit log's SQL: the row as a part of a write's closing statement, the list, and retention. */
@Injectable()
export class AuditLogRepository {
  /**
   * The row as a part of the write's closing statement (a transaction's or a combined write's):
   * the same rendering on every path, so no write has an audit row of its own making. `index`
   * keeps the part's name unique in the statement.
   */
  insertPart(entry: AuditEntry, index: number): WritePart {
    if (!entry.merchantId.startsWith('mer_')) throw new Error('An audit row needs its merchant');
    const id = generateId('aud');
    return {
      name: `audit_row_${index}`,
      render: (parameters) =>
        `INSERT INTO audit_log (id, merchant_id, mode, actor_type, actor_id, actor_label, action, object_type, object_id, request_id, client_address, status)
          VALUES (${parameters.text(id)}, ${parameters.text(entry.merchantId)}, ${parameters.text(entry.mode)}, ${parameters.text(entry.actor.type)},
            ${parameters.text(entry.actor.id)}, ${parameters.text(entry.actor.label)}, ${parameters.text(entry.action)}, ${parameters.text(entry.object.type)},
            ${parameters.text(entry.object.id)}, ${parameters.text(entry.requestId)}, ${parameters.text(entry.clientAddress)}, ${parameters.text(entry.status)})
          RETURNING id`,
    };
  }

  /**
   * One keyset page (limit + 1 rows) and the total, newest first: the merchant's rows of the
   * tenant's mode and those of no mode (the account's: sign-ins, the team).
   */
  list(db: Reader, tenant: Tenant, filters: AuditFilters, page: PageRequest): Promise<{ rows: AuditEntryEntity[]; total: number }> {
    assertTenant(tenant);
    const base = () => {
      const query = db.manager
        .createQueryBuilder(AuditEntryEntity, 'entry')
        .where('entry.merchant_id = :merchantId', { merchantId: tenant.merchantId })
        .andWhere(new Brackets((either) => either.where('entry.mode = :mode', { mode: tenant.mode }).orWhere('entry.mode IS NULL')));
      if (filters.actorId !== undefined) query.andWhere('entry.actor_id = :actorId', { actorId: filters.actorId });
      if (filters.objectId !== undefined) query.andWhere('entry.object_id = :objectId', { objectId: filters.objectId });
      if (filters.action !== undefined) query.andWhere('entry.action = :action', { action: filters.action });
      if (filters.createdAfter) query.andWhere('entry.created_at > :createdAfter', { createdAfter: filters.createdAfter });
      if (filters.createdBefore) query.andWhere('entry.created_at < :createdBefore', { createdBefore: filters.createdBefore });
      return query;
    };
    return fetchPageWithTotal(base, 'entry', page);
  }

  /** AUDIT_RETENTION: at most `limit` rows older than `cutoff`. */
  async deleteBefore(tx: Transaction, cutoff: Date, limit: number): Promise<number> {
    const [, affected]: [unknown, number] = await tx.manager.query(`DELETE FROM audit_log WHERE id IN (${DUE_AUDIT_ENTRIES})`, [cutoff, limit]);
    return affected ?? 0;
  }
}
