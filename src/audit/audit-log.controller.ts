import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { mayLag } from '../swagger/replica-lag';
import { AuditLogService } from './audit-log.service';
import { AuditEntryResponseDto } from './dto/audit-entry-response.dto';
import { ListAuditLogQueryDto } from './dto/list-audit-log-query.dto';

/** The audit log is append-only: this one GET is its only route (no update, no delete). */
@ApiTags('audit-log')
@Controller('v1/audit-log')
export class AuditLogController {
  constructor(private readonly auditLog: AuditLogService) {}

  @Get()
  @RequireScopes('audit:read')
  @ApiOperation(mayLag({
    summary: 'List the audit log',
    description:
      "Who did what: one row per successful write (by a dashboard user, an API key, the admin token or the CLI), sign-in, failed sign-in, " +
      "key and team change, written in the change's own transaction. This mode's rows and the account's (mode null), newest first, " +
      'cursor-paginated; filter by actor, object, action and creation time (exclusive bounds).',
  }))
  @ApiEnvelopeResponse(AuditEntryResponseDto, { description: 'A page of audit rows', list: 'total' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  list(@CurrentTenant() tenant: Tenant, @Query() query: ListAuditLogQueryDto): Promise<PageResult<AuditEntryResponseDto>> {
    return this.auditLog.list(tenant, query);
  }
}
