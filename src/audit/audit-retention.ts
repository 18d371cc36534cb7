import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Pruner } from '../database/pruner';
import { AuditLogRepository } from './audit-log.repository';

/**
 * AUDIT_RETENTION (DESIGN §11, default 400 days): rows older than it deleted by the Pruner in
 * batches, like EVENT_RETENTION's; the only deletion the audit log knows. `0` keeps them all.
 */
@Injectable()
export class AuditRetention implements OnModuleInit {
  private readonly retentionMilliseconds: number;

  constructor(
    config: AppConfig,
    private readonly auditLog: AuditLogRepository,
    private readonly pruner: Pruner,
  ) {
    this.retentionMilliseconds = config.auditRetentionMilliseconds;
  }

  onModuleInit(): void {
    if (this.retentionMilliseconds === 0) return;
    this.pruner.register({
      name: 'audit_log',
      pruneBatch: (tx, limit, now) => this.auditLog.deleteBefore(tx, new Date(now.getTime() - this.retentionMilliseconds), limit),
    });
  }
}
