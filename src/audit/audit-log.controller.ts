import { Controller, Get, Headers, Query, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import { CSV_EXPORT_PAGE_SIZE, csvExport, type CsvColumns, wantsCsv } from '../envelope/csv';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { mayLag } from '../swagger/replica-lag';
import { AuditLogService } from './audit-log.service';
import { AuditEntryResponseDto } from './dto/audit-entry-response.dto';
import { ListAuditLogQueryDto } from './dto/list-audit-log-query.dto';

/** An audit row as one flat CSV line: the actor's and object's fields get columns of their own. */
interface AuditCsvRow {
  id: string;
  created_at: string;
  actor_type: string;
  actor_id: string;
  actor_label: string;
  action: string;
  object_type: string;
  object_id: string | null;
  mode: string | null;
  request_id: string | null;
  client_address: string | null;
  status: string;
}

/** The audit log's CSV export (Accept: text/csv). */
const AUDIT_CSV_COLUMNS: CsvColumns<AuditCsvRow> = ['id', 'created_at', 'actor_type', 'actor_id', 'actor_label', 'action', 'object_type', 'object_id', 'mode', 'request_id', 'client_address', 'status'];

function auditCsvRow(entry: AuditEntryResponseDto): AuditCsvRow {
  return {
    id: entry.id,
    created_at: entry.created_at,
    actor_type: entry.actor.type,
    actor_id: entry.actor.id,
    actor_label: entry.actor.label,
    action: entry.action,
    object_type: entry.object.type,
    object_id: entry.object.id,
    mode: entry.mode,
    request_id: entry.request_id,
    client_address: entry.client_address,
    status: entry.status,
  };
}

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
      'cursor-paginated; filter by actor, object, action and creation time (exclusive bounds). ' +
      'With `Accept: text/csv` every page of the filtered log is streamed as one CSV file (the actor and object in columns of their own).',
  }))
  @ApiEnvelopeResponse(AuditEntryResponseDto, { description: 'A page of audit rows', list: 'total', csvColumns: AUDIT_CSV_COLUMNS })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  list(
    @CurrentTenant() tenant: Tenant,
    @Query() query: ListAuditLogQueryDto,
    @Headers('accept') accept: string | undefined,
  ): Promise<PageResult<AuditEntryResponseDto> | StreamableFile> {
    if (!wantsCsv(accept)) return this.auditLog.list(tenant, query);
    return csvExport('audit-log.csv', AUDIT_CSV_COLUMNS, async (cursor) => {
      const page = await this.auditLog.list(tenant, { ...query, limit: CSV_EXPORT_PAGE_SIZE, cursor });
      return new PageResult(page.items.map(auditCsvRow), page.pagination);
    });
  }
}
