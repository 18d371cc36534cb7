import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import { TenantTable } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { fetchPageWithTotal } from '../pagination/keyset';
import type { PageRequest } from '../pagination/page';
import { UsageStatementEntity } from './usage-statement.entity';

/** A statement to write: every column but those the report fills in later. */
export type NewUsageStatement = Pick<
  UsageStatementEntity,
  | 'id'
  | 'merchant_id'
  | 'mode'
  | 'month'
  | 'plan'
  | 'included_bandwidth_bytes'
  | 'bandwidth_bytes'
  | 'overage_bytes'
  | 'price_per_gib'
  | 'currency'
  | 'amount'
  | 'created_at'
  | 'next_report_at'
>;

/** SQL of usage statements. The month's close and the Stripe reporter work across merchants (operator jobs). */
@Injectable()
export class UsageStatementsRepository {
  private readonly table = new TenantTable(UsageStatementEntity, 'statement');

  /**
   * Writes the statements that don't exist yet and returns those written: (merchant, mode, month)
   * is unique, so a statement another close wrote (committed, or committing: the insert waits for
   * it) is skipped, and only the writer publishes its event.
   */
  async insertNew(tx: Transaction, statements: readonly NewUsageStatement[]): Promise<UsageStatementEntity[]> {
    if (statements.length === 0) return [];
    const result = await tx.manager
      .createQueryBuilder()
      .insert()
      .into(UsageStatementEntity)
      .values(statements.map((statement) => ({ ...statement, report_attempts: 0 })))
      .orIgnore()
      .returning('*')
      .execute();
    const ids = new Set((result.raw as Array<{ id: string }>).map((row) => row.id));
    return statements.filter((statement) => ids.has(statement.id)).map((statement) => tx.manager.create(UsageStatementEntity, { ...statement, reported_at: null, report_error: null, report_attempts: 0 }));
  }

  list(db: Reader, tenant: Tenant, page: PageRequest): Promise<{ rows: UsageStatementEntity[]; total: number }> {
    return fetchPageWithTotal(() => this.table.select(db.manager, tenant), 'statement', page);
  }

  findById(db: Reader, tenant: Tenant, statementId: string): Promise<UsageStatementEntity | null> {
    return this.table.findOne(db.manager, tenant, { id: statementId });
  }

  /** Every merchant's statements of one month and mode, by merchant: the operator's billing run. */
  listMonth(db: Reader, month: string, mode: Tenant['mode']): Promise<UsageStatementEntity[]> {
    return db.manager.find(UsageStatementEntity, { where: { month, mode }, order: { merchant_id: 'ASC' } });
  }

  /**
   * Statements whose Stripe report is due, at most `limit`, leased to this reporter until
   * `leaseUntil`: chosen FOR UPDATE SKIP LOCKED (another reporter takes others) and moved past
   * the lease in the same transaction, so the report itself runs outside any transaction; a
   * reporter that dies mid-report leaves them due again when the lease ends.
   */
  async leaseDueReports(tx: Transaction, now: Date, leaseUntil: Date, limit: number): Promise<UsageStatementEntity[]> {
    const due = await tx.manager
      .createQueryBuilder(UsageStatementEntity, 'statement')
      .where('statement.next_report_at IS NOT NULL AND statement.next_report_at <= :now', { now })
      .orderBy('statement.next_report_at', 'ASC')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
    if (due.length > 0) {
      await tx.manager.update(UsageStatementEntity, due.map((statement) => statement.id), { next_report_at: leaseUntil });
    }
    return due;
  }

  /** The outcome of a report attempt: reported (`reportedAt`), or failed with when to try next (null: given up). */
  async recordReport(
    tx: Transaction,
    statement: Pick<UsageStatementEntity, 'id' | 'merchant_id' | 'mode'>,
    outcome: { reportedAt: Date | null; error: string | null; nextAttemptAt: Date | null },
  ): Promise<void> {
    await this.table.update(
      tx.manager,
      { merchantId: statement.merchant_id, mode: statement.mode },
      { id: statement.id },
      { reported_at: outcome.reportedAt, report_error: outcome.error, next_report_at: outcome.nextAttemptAt, report_attempts: () => 'report_attempts + 1' },
    );
  }
}
