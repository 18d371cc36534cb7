import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { AUDIT_RECORD, AuditRecord } from '../database/audit-trail';
import { AuditLogRepository } from './audit-log.repository';

/** Adds a write's audit row to its closing statement (UnitOfWork emits AUDIT_RECORD just before the commit). */
@Injectable()
export class AuditLogListener {
  constructor(private readonly auditLog: AuditLogRepository) {}

  @OnEvent(AUDIT_RECORD, { promisify: true, suppressErrors: false })
  record(record: AuditRecord): Promise<void> {
    record.combined.add(this.auditLog.insertPart(record.entry, record.combined.parts.length));
    return Promise.resolve();
  }
}
