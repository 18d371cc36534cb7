import { Injectable, OnModuleInit } from '@nestjs/common';
import { Pruner } from '../database/pruner';
import { DashboardPruningRepository } from './dashboard-pruning.repository';
import { SESSION_IDLE_MILLISECONDS } from './dashboard-sessions.service';

/**
 * Ended dashboard sessions (signed out, or idle past 12 h: they can't come back) and setup links
 * that are used or expired (they can't be used again), deleted by the Pruner in batches.
 */
@Injectable()
export class DashboardPruning implements OnModuleInit {
  constructor(
    private readonly pruning: DashboardPruningRepository,
    private readonly pruner: Pruner,
  ) {}

  onModuleInit(): void {
    this.pruner.register({
      name: 'dashboard_sessions',
      pruneBatch: (tx, limit, now) => this.pruning.deleteEndedSessions(tx, new Date(now.getTime() - SESSION_IDLE_MILLISECONDS), limit),
    });
    this.pruner.register({
      name: 'dashboard_setup_links',
      pruneBatch: (tx, limit, now) => this.pruning.deleteSpentSetupLinks(tx, now, limit),
    });
  }
}
