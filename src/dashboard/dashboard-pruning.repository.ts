import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/transaction';

/*
 * What the dashboard prunes (DESIGN §15), at most $2 rows per statement, each SELECT by indexes
 * of its own (named beside it), skipping rows another transaction holds. Exported for EXPLAIN.
 */

/** Sessions signed out, or idle since before $1 (12 h ago), by dashboard_sessions_ended_idx and dashboard_sessions_last_seen_idx. */
export const DUE_SESSIONS = `SELECT id FROM dashboard_sessions WHERE ended_at IS NOT NULL OR last_seen_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED`;
/** Setup links used, or expired before $1, by dashboard_setup_links_used_idx and dashboard_setup_links_expires_idx. */
export const DUE_SETUP_LINKS = `SELECT token_hash FROM dashboard_setup_links WHERE used_at IS NOT NULL OR expires_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED`;

/** SQL of the dashboard's pruning: ended sessions and used or expired setup links. */
@Injectable()
export class DashboardPruningRepository {
  deleteEndedSessions(tx: Transaction, idleBefore: Date, limit: number): Promise<number> {
    return this.delete(tx, `DELETE FROM dashboard_sessions WHERE id IN (${DUE_SESSIONS})`, idleBefore, limit);
  }

  deleteSpentSetupLinks(tx: Transaction, now: Date, limit: number): Promise<number> {
    return this.delete(tx, `DELETE FROM dashboard_setup_links WHERE token_hash IN (${DUE_SETUP_LINKS})`, now, limit);
  }

  private async delete(tx: Transaction, sql: string, bound: Date, limit: number): Promise<number> {
    const [, affected]: [unknown, number] = await tx.manager.query(sql, [bound, limit]);
    return affected ?? 0;
  }
}
