import { Injectable } from '@nestjs/common';
import { Clock } from '../clock/clock';
import type { Tenant } from '../database/tenant';
import type { Reader, Transaction } from '../database/transaction';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isValidId } from '../ids/id';
import { TestClockEntity } from './test-clock.entity';
import { TestClocksRepository } from './test-clocks.repository';

/**
 * "Now" for a customer (DESIGN §14): the real time (the kernel's Clock) for a customer bound to no
 * test clock, the clock's frozen_time for a bound one. Every rule that asks for the time about a
 * customer (grants, expiry, usage, tokens) asks here with the customer's test_clock_id.
 */
@Injectable()
export class TestClockTime {
  constructor(
    private readonly clocks: TestClocksRepository,
    private readonly clock: Clock,
  ) {}

  /** The real time: for what belongs to no customer. */
  realNow(): Date {
    return this.clock.now();
  }

  /** Now for a customer bound to `testClockId` (null: unbound). */
  async nowFor(db: Reader, tenant: Tenant, testClockId: string | null): Promise<Date> {
    return (await this.nowsFor(db, tenant, [testClockId]))(testClockId);
  }

  /** Now for customers bound to these clocks, read once for all of them (lists). */
  async nowsFor(db: Reader, tenant: Tenant, testClockIds: ReadonlyArray<string | null>): Promise<(testClockId: string | null) => Date> {
    const now = this.clock.now();
    const ids = [...new Set(testClockIds.filter((id): id is string => id !== null))];
    // Live mode has no clocks: no read on its hot paths.
    if (ids.length === 0 || tenant.mode === 'live') return () => now;
    const frozen = new Map((await this.clocks.findByIds(db, tenant, ids)).map((clock) => [clock.id, clock.frozen_time]));
    return (testClockId) => (testClockId === null ? now : (frozen.get(testClockId) ?? now));
  }

  /**
   * The tenant's clock, key-share locked until the transaction ends, or 404 TEST_CLOCK_NOT_FOUND: a
   * write that binds rows to the clock (a new customer, an entitlement) commits before the clock's
   * delete (which waits for it) or not at all, never into a foreign-key violation.
   */
  async holdForWrite(tx: Transaction, tenant: Tenant, clockId: string): Promise<TestClockEntity> {
    const clock = isValidId('clock', clockId) ? await this.clocks.keyShareLockById(tx, tenant, clockId) : null;
    if (!clock) throw new ApiError(ErrorCode.TEST_CLOCK_NOT_FOUND, `No test clock with id '${clockId}'`, 'test_clock');
    return clock;
  }

  /** The tenant's clock, or 404 TEST_CLOCK_NOT_FOUND (a live tenant has none). */
  async require(db: Reader, tenant: Tenant, clockId: string): Promise<TestClockEntity> {
    const clock = isValidId('clock', clockId) ? await this.clocks.findById(db, tenant, clockId) : null;
    if (!clock) throw new ApiError(ErrorCode.TEST_CLOCK_NOT_FOUND, `No test clock with id '${clockId}'`, 'test_clock');
    return clock;
  }
}
