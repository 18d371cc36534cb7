import { Injectable, OnModuleInit } from '@nestjs/common';
import { Pruner } from '../database/pruner';
import type { Transaction } from '../database/transaction';
import { PORTAL_SESSION_IDLE_MILLISECONDS } from './portal-sessions.service';

/**
 * How long a spent row is kept: a link opened again within this time still gets the clear page
 * ("already used", "expired") rather than "not valid".
 */
export const PORTAL_SESSION_KEPT_MILLISECONDS = 7 * 24 * 60 * 60 * 1000;

/**
 * Portal sessions not seen since before $1 (idle past 12 h, signed out ones included, then kept
 * a week) by portal_sessions_last_seen_idx, and links never opened that expired before $2 (kept a
 * week) by portal_sessions_unopened_expires_idx; at most $3 rows. Exported for EXPLAIN.
 */
export const DUE_PORTAL_SESSIONS = `SELECT id FROM portal_sessions WHERE last_seen_at < $1 OR (opened_at IS NULL AND link_expires_at < $2) LIMIT $3 FOR UPDATE SKIP LOCKED`;

/** Spent portal sessions and links, deleted by the Pruner in batches (DESIGN §15). */
@Injectable()
export class PortalPruning implements OnModuleInit {
  constructor(private readonly pruner: Pruner) {}

  onModuleInit(): void {
    this.pruner.register({
      name: 'portal_sessions',
      pruneBatch: (tx, limit, now) => deleteSpentPortalSessions(tx, now, limit),
    });
  }
}

async function deleteSpentPortalSessions(tx: Transaction, now: Date, limit: number): Promise<number> {
  const idleBefore = new Date(now.getTime() - PORTAL_SESSION_IDLE_MILLISECONDS - PORTAL_SESSION_KEPT_MILLISECONDS);
  const expiredBefore = new Date(now.getTime() - PORTAL_SESSION_KEPT_MILLISECONDS);
  const [, affected]: [unknown, number] = await tx.manager.query(`DELETE FROM portal_sessions WHERE id IN (${DUE_PORTAL_SESSIONS})`, [idleBefore, expiredBefore, limit]);
  return affected ?? 0;
}
