import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { ApiIdParam } from '../swagger/api-path-parameters';
import { TenantUsageResponseDto } from './dto/tenant-usage-response.dto';
import { UsageStatementResponseDto } from './dto/usage-statement-response.dto';
import { TenantUsageService } from './tenant-usage.service';
import { UsageStatementsService } from './usage-statements.service';

/** A merchant's own usage, charge to date and closed months (DESIGN §17), for the key's mode. */
@ApiTags('usage')
@Controller('v1/usage')
export class UsageController {
  constructor(
    private readonly usage: TenantUsageService,
    private readonly statements: UsageStatementsService,
  ) {}

  @Get()
  @RequireScopes('usage:read')
  @ApiOperation({
    summary: "This month's usage and charge",
    description:
      "The key's mode, this calendar month (UTC): limits (the plan's or the merchant's own), storage, bandwidth, bytes past the included " +
      'bandwidth, and the overage charge so far in minor units (overage bytes × price per GiB ÷ 2^30, rounded half up). The free plan ' +
      'refuses downloads past its bandwidth instead, so it has no overage.',
  })
  @ApiEnvelopeResponse(TenantUsageResponseDto, { description: 'Usage and charge to date' })
  get(@CurrentTenant() tenant: Tenant): Promise<TenantUsageResponseDto> {
    return this.usage.usageOf(tenant);
  }

  @Get('statements')
  @RequireScopes('usage:read')
  @ApiOperation({
    summary: 'List usage statements',
    description: "Closed months of the key's mode, newest first, cursor-paginated: each written once after its month ended (UTC) and never changed.",
  })
  @ApiEnvelopeResponse(UsageStatementResponseDto, { description: 'A page of statements', list: 'total' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  list(@CurrentTenant() tenant: Tenant, @Query() query: PaginationQueryDto): Promise<PageResult<UsageStatementResponseDto>> {
    return this.statements.list(tenant, query);
  }

  @Get('statements/:statement_id')
  @RequireScopes('usage:read')
  @ApiOperation({ summary: 'Get a usage statement' })
  @ApiIdParam('statement_id', 'stmt', 'Statement', ['GET /v1/usage/statements'])
  @ApiEnvelopeResponse(UsageStatementResponseDto, { description: 'The statement' })
  @ApiErrorResponses(ErrorCode.STATEMENT_NOT_FOUND)
  getStatement(@CurrentTenant() tenant: Tenant, @Param('statement_id') statementId: string): Promise<UsageStatementResponseDto> {
    return this.statements.get(tenant, statementId);
  }
}
