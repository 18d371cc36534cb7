import { Module } from '@nestjs/common';
import { AuditLogController } from './audit-log.controller';
import { AuditLogService } from './audit-log.service';
import { AuditRecordsModule } from './audit-records.module';

/** The audit log (DESIGN §11): its records and GET /v1/audit-log. */
@Module({
  imports: [AuditRecordsModule],
  controllers: [AuditLogController],
  providers: [AuditLogService],
})
export class AuditModule {}
