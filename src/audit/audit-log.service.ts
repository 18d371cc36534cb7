import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import { UnitOfWork } from '../database/unit-of-work';
import { PageResult } from '../envelope/page-result';
import { toPageRequest, toPageResult } from '../pagination/page';
import { toAuditEntryResponse } from './audit-entry.mapper';
import { AuditLogRepository } from './audit-log.repository';
import { AuditEntryResponseDto } from './dto/audit-entry-response.dto';
import { ListAuditLogQueryDto } from './dto/list-audit-log-query.dto';

/** Reads the audit log; nothing here writes it (UnitOfWork does, with each change). */
@Injectable()
export class AuditLogService {
  constructor(
    private readonly auditLog: AuditLogRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async list(tenant: Tenant, query: ListAuditLogQueryDto): Promise<PageResult<AuditEntryResponseDto>> {
    const page = toPageRequest(query);
    const filters = {
      actorId: query.actor_id,
      objectId: query.object_id,
      action: query.action,
      createdAfter: query.created_after ? new Date(query.created_after) : undefined,
      createdBefore: query.created_before ? new Date(query.created_before) : undefined,
    };
    const { rows, total } = await this.auditLog.list(this.unitOfWork.replica, tenant, filters, page);
    return toPageResult(rows, page, (row) => row.created_at, toAuditEntryResponse, total);
  }
}
