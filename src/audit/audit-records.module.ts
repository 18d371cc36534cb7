import { Module } from '@nestjs/common';
import { AuditLogListener } from './audit-log.listener';
import { AuditLogRepository } from './audit-log.repository';
import { AuditRetention } from './audit-retention';

/** Writing and pruning the audit log: loaded wherever writes run (the app and the CLI). */
@Module({
  providers: [AuditLogRepository, AuditLogListener, AuditRetention],
  exports: [AuditLogRepository],
})
export class AuditRecordsModule {}
