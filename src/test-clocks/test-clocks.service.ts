import { Injectable } from '@nestjs/common';
import type { Operation } from '../database/operation';
import type { Tenant } from '../database/tenant';
import { UnitOfWork } from '../database/unit-of-work';
import { PageResult } from '../envelope/page-result';
import { EntitlementExpirySweeper } from '../entitlements/entitlement-expiry.sweeper';
import { LicenseActivationSweeper } from '../license-records/license-activation.sweeper';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { toPageRequest, toPageResult } from '../pagination/page';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { TestClockTime } from '../test-clock-records/test-clock-time.service';
import { TestClockRecordsService } from '../test-clock-records/test-clock-records.service';
import { AdvanceTestClockDto, CreateTestClockDto } from './dto/test-clock-request.dto';
import { DeletedTestClockResponseDto, TestClockResponseDto } from './dto/test-clock-response.dto';
import { toTestClockResponse } from './test-clock.mapper';

/** How far one advance may move a clock: its expiry work runs inside the request. */
const MAX_ADVANCE_YEARS = 2;

/** 400 TEST_MODE_ONLY for a live key: clocks move time, which live data must never see. */
function requireTestMode(tenant: Tenant): void {
  if (tenant.mode !== 'test') {
    throw new ApiError(ErrorCode.TEST_MODE_ONLY, 'Test clocks exist in test mode only: use a test key (eh_test_…)');
  }
}

/**
 * Test clocks (DESIGN §14): their routes, and the advance, which moves a clock and applies, in the
 * same transaction, everything that became due for its customers through the expiry sweeper's
 * own path (one rule, one place), so each event is published once.
 */
@Injectable()
export class TestClocksService {
  constructor(
    private readonly clocks: TestClockRecordsService,
    private readonly time: TestClockTime,
    private readonly sweeper: EntitlementExpirySweeper,
    private readonly licenseSweeper: LicenseActivationSweeper,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  create(operation: Operation, input: CreateTestClockDto): Promise<TestClockResponseDto> {
    const { tenant } = operation;
    requireTestMode(tenant);
    return this.unitOfWork.run(operation, async (tx) =>
      toTestClockResponse(await this.clocks.create(tx, tenant, new Date(input.frozen_time), input.name ?? null)),
    );
  }

  async list(tenant: Tenant, query: PaginationQueryDto): Promise<PageResult<TestClockResponseDto>> {
    requireTestMode(tenant);
    const page = toPageRequest(query);
    const { rows, total } = await this.clocks.list(this.unitOfWork.replica, tenant, page);
    return toPageResult(rows, page, (row) => row.created_at, toTestClockResponse, total);
  }

  async get(tenant: Tenant, clockId: string): Promise<TestClockResponseDto> {
    requireTestMode(tenant);
    return toTestClockResponse(await this.time.require(this.unitOfWork.pool, tenant, clockId));
  }

  /**
   * Moves the clock forward (at most MAX_ADVANCE_YEARS) and expires, in the same transaction and
   * through the sweeper's path, every entitlement of its customers that ran out by the new time
   * (time limits, and subscriptions' cancel_at_period_end, whose expires_at is the period's end).
   */
  advance(operation: Operation, clockId: string, input: AdvanceTestClockDto): Promise<TestClockResponseDto> {
    const { tenant } = operation;
    requireTestMode(tenant);
    const target = new Date(input.frozen_time);
    return this.unitOfWork.run(operation, async (tx) => {
      const clock = await this.clocks.lock(tx, tenant, clockId);
      if (target.getTime() <= clock.frozen_time.getTime()) {
        throw new ApiError(
          ErrorCode.INVALID_PARAMETER,
          `Invalid 'frozen_time': a test clock only moves forward; it is at ${clock.frozen_time.toISOString()}`,
          'frozen_time',
        );
      }
      const limit = new Date(clock.frozen_time);
      limit.setUTCFullYear(limit.getUTCFullYear() + MAX_ADVANCE_YEARS);
      if (target.getTime() > limit.getTime()) {
        throw new ApiError(
          ErrorCode.INVALID_PARAMETER,
          `Invalid 'frozen_time': one advance moves a clock at most ${MAX_ADVANCE_YEARS} years, to ${limit.toISOString()}; advance in steps`,
          'frozen_time',
        );
      }
      const moved = await this.clocks.moveTo(tx, tenant, clock.id, target);
      await this.sweeper.sweepTestClock(tx, tenant, clock.id, target);
      // Floating seats of its customers not seen for their TTL by the new time (DESIGN §18).
      await this.licenseSweeper.sweepTestClock(tx, tenant, clock.id, target);
      return toTestClockResponse(moved);
    });
  }

  /** Deletes the clock with its customers and theirs: entitlements, orders, subscriptions (the schema cascades). */
  delete(operation: Operation, clockId: string): Promise<DeletedTestClockResponseDto> {
    const { tenant } = operation;
    requireTestMode(tenant);
    return this.unitOfWork.run(operation, async (tx) => {
      const clock = await this.clocks.lock(tx, tenant, clockId);
      await this.clocks.delete(tx, tenant, clock.id);
      return { id: clock.id, deleted: true };
    });
  }
}
