import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Tenant } from '../database/tenant';
import { TenantTable } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { TestClockEntity } from './test-clock.entity';

/** SQL of test_clocks. */
@Injectable()
export class TestClocksRepository {
  private readonly table = new TenantTable(TestClockEntity, 'clock');

  findById(db: Reader, tenant: Tenant, clockId: string): Promise<TestClockEntity | null> {
    return this.table.findOne(db.manager, tenant, { id: clockId });
  }

  findByIds(db: Reader, tenant: Tenant, clockIds: string[]): Promise<TestClockEntity[]> {
    if (clockIds.length === 0) return Promise.resolve([]);
    return this.table.find(db.manager, tenant, { id: In(clockIds) });
  }

  lockById(tx: Transaction, tenant: Tenant, clockId: string): Promise<TestClockEntity | null> {
    return this.table.lockById(tx.manager, tenant, clockId);
  }

  /** The clock with a key-share lock (what a foreign key's check takes): its delete waits, its advance does not. */
  keyShareLockById(tx: Transaction, tenant: Tenant, clockId: string): Promise<TestClockEntity | null> {
    return this.table.select(tx.manager, tenant).andWhere('clock.id = :clockId', { clockId }).setLock('for_key_share').getOne();
  }

  async insert(tx: Transaction, tenant: Tenant, clock: Pick<TestClockEntity, 'id' | 'name' | 'frozen_time'>): Promise<TestClockEntity> {
    await this.table.insert(tx.manager, tenant, clock);
    return this.require(tx, tenant, clock.id);
  }

  async moveTo(tx: Transaction, tenant: Tenant, clockId: string, frozenTime: Date): Promise<TestClockEntity> {
    await this.table.update(tx.manager, tenant, { id: clockId }, { frozen_time: frozenTime });
    return this.require(tx, tenant, clockId);
  }

  /** Deletes the clock; the schema deletes its customers with it, and theirs (entitlements, orders, subscriptions) with them. */
  async delete(tx: Transaction, tenant: Tenant, clockId: string): Promise<void> {
    await this.table.delete(tx.manager, tenant, { id: clockId });
  }

  /** One keyset page (limit + 1 rows) and the total, newest first. */
  list(db: Reader, tenant: Tenant, page: PageRequest): Promise<{ rows: TestClockEntity[]; total: number }> {
    return fetchPageWithTotal(() => this.table.select(db.manager, tenant), 'clock', page);
  }

  private async require(tx: Transaction, tenant: Tenant, clockId: string): Promise<TestClockEntity> {
    const clock = await this.findById(tx, tenant, clockId);
    if (!clock) throw new Error(`Test clock ${clockId} vanished inside its own transaction`);
    return clock;
  }
}
