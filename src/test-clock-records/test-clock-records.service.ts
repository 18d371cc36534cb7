import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import type { Reader, Transaction } from '../database/transaction';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { generateId, isValidId } from '../ids/id';
import type { PageRequest } from '../pagination/page';
import { TestClockEntity } from './test-clock.entity';
import { TestClocksRepository } from './test-clocks.repository';

/** The test_clocks table for the test-clocks routes (DESIGN §1: only its owner's repository names it). */
@Injectable()
export class TestClockRecordsService {
  constructor(private readonly clocks: TestClocksRepository) {}

  create(tx: Transaction, tenant: Tenant, frozenTime: Date, name: string | null): Promise<TestClockEntity> {
    return this.clocks.insert(tx, tenant, { id: generateId('clock'), name, frozen_time: frozenTime });
  }

  /** Locks the tenant's clock for the rest of the transaction, or 404 TEST_CLOCK_NOT_FOUND. */
  async lock(tx: Transaction, tenant: Tenant, clockId: string): Promise<TestClockEntity> {
    const clock = isValidId('clock', clockId) ? await this.clocks.lockById(tx, tenant, clockId) : null;
    if (!clock) throw new ApiError(ErrorCode.TEST_CLOCK_NOT_FOUND, `No test clock with id '${clockId}'`);
    return clock;
  }

  moveTo(tx: Transaction, tenant: Tenant, clockId: string, frozenTime: Date): Promise<TestClockEntity> {
    return this.clocks.moveTo(tx, tenant, clockId, frozenTime);
  }

  /** Deletes the clock; the schema deletes its customers (and theirs) with it. */
  delete(tx: Transaction, tenant: Tenant, clockId: string): Promise<void> {
    return this.clocks.delete(tx, tenant, clockId);
  }

  list(db: Reader, tenant: Tenant, page: PageRequest): Promise<{ rows: TestClockEntity[]; total: number }> {
    return this.clocks.list(db, tenant, page);
  }
}
