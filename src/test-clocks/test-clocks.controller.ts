import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Operation } from '../database/operation';
import type { Tenant } from '../database/tenant';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { CurrentOperation } from '../idempotency/current-operation.decorator';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { ApiJsonBody } from '../swagger/api-json-body.decorator';
import { ApiIdParam } from '../swagger/api-path-parameters';
import { AdvanceTestClockDto, CreateTestClockDto } from './dto/test-clock-request.dto';
import { DeletedTestClockResponseDto, TestClockResponseDto } from './dto/test-clock-response.dto';
import { TestClocksService } from './test-clocks.service';
import { mayLag } from '../swagger/replica-lag';

const CLOCK_ID_PARAM = ApiIdParam('test_clock_id', 'clock', 'Test clock', ['POST /v1/test-clocks', 'GET /v1/test-clocks']);

@ApiTags('test-clocks')
@Controller('v1/test-clocks')
export class TestClocksController {
  constructor(private readonly clocks: TestClocksService) {}

  @Post()
  @RequireScopes('entitlements:write')
  @ApiOperation({
    summary: 'Create a test clock',
    description:
      'Test mode only (a live key is 400 TEST_MODE_ONLY). Customers created with `test_clock` set to its id (on POST ' +
      '/v1/entitlements, orders, subscriptions, imports) live at its frozen_time: their grants, access checks, expiry, ' +
      'usage and tokens use it as "now". Advance it to see what happens after 30 days without waiting 30 days.',
  })
  @ApiJsonBody(CreateTestClockDto, { frozen_time: '2027-01-01T00:00:00Z', name: 'renewal suite' })
  @ApiEnvelopeResponse(TestClockResponseDto, { status: 201, description: 'The clock' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER, ErrorCode.TEST_MODE_ONLY, ErrorCode.IDEMPOTENCY_KEY_CONFLICT)
  create(@CurrentOperation() operation: Operation, @Body() body: CreateTestClockDto): Promise<TestClockResponseDto> {
    return this.clocks.create(operation, body);
  }

  @Get()
  @RequireScopes('entitlements:read')
  @ApiOperation(mayLag({ summary: 'List test clocks', description: 'Test mode only. Newest first, cursor-paginated with total.' }))
  @ApiEnvelopeResponse(TestClockResponseDto, { description: 'A page of clocks', list: 'total' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER, ErrorCode.TEST_MODE_ONLY)
  list(@CurrentTenant() tenant: Tenant, @Query() query: PaginationQueryDto): Promise<PageResult<TestClockResponseDto>> {
    return this.clocks.list(tenant, query);
  }

  // Before the clock's own path (GET, DELETE): Swagger UI lists paths in this order, and /docs fills the last clock's id (DESIGN §20).
  @Post(':test_clock_id/advance')
  @HttpCode(200)
  @RequireScopes('entitlements:write')
  @ApiOperation({
    summary: 'Advance a test clock',
    description:
      'Moves the clock forward (a later frozen_time, at most 2 years per call; else 400 INVALID_PARAMETER) and, before ' +
      'answering, applies everything that became due for its customers as the expiry sweeper would: time-limited ' +
      "entitlements past expires_at and subscriptions' cancel_at_period_end expire, each publishing entitlement.expired " +
      'once (an event keeps its real created_at and carries data.test_clock). The answer is the clock, status ready.',
  })
  @CLOCK_ID_PARAM
  @ApiJsonBody(AdvanceTestClockDto, { frozen_time: '2027-02-01T00:00:00Z' })
  @ApiEnvelopeResponse(TestClockResponseDto, { description: 'The clock at its new time' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER, ErrorCode.TEST_MODE_ONLY, ErrorCode.TEST_CLOCK_NOT_FOUND, ErrorCode.IDEMPOTENCY_KEY_CONFLICT)
  advance(@CurrentOperation() operation: Operation, @Param('test_clock_id') clockId: string, @Body() body: AdvanceTestClockDto): Promise<TestClockResponseDto> {
    return this.clocks.advance(operation, clockId, body);
  }

  @Get(':test_clock_id')
  @RequireScopes('entitlements:read')
  @ApiOperation({ summary: 'Get a test clock', description: 'Test mode only.' })
  @CLOCK_ID_PARAM
  @ApiEnvelopeResponse(TestClockResponseDto, { description: 'The clock' })
  @ApiErrorResponses(ErrorCode.TEST_MODE_ONLY, ErrorCode.TEST_CLOCK_NOT_FOUND)
  get(@CurrentTenant() tenant: Tenant, @Param('test_clock_id') clockId: string): Promise<TestClockResponseDto> {
    return this.clocks.get(tenant, clockId);
  }

  @Delete(':test_clock_id')
  @HttpCode(200)
  @RequireScopes('entitlements:write')
  @ApiOperation({
    summary: 'Delete a test clock',
    description: "Deletes the clock and its customers with their entitlements, orders and subscriptions (events stay in the log). Test mode only.",
  })
  @CLOCK_ID_PARAM
  @ApiEnvelopeResponse(DeletedTestClockResponseDto, { description: 'Deleted' })
  @ApiErrorResponses(ErrorCode.TEST_MODE_ONLY, ErrorCode.TEST_CLOCK_NOT_FOUND)
  delete(@CurrentOperation() operation: Operation, @Param('test_clock_id') clockId: string): Promise<DeletedTestClockResponseDto> {
    return this.clocks.delete(operation, clockId);
  }
}
