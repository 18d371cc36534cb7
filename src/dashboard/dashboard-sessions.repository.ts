import { Injectable } from '@nestjs/common';
import { IsNull, Not } from 'typeorm';
import { generateId } from '../ids/id';
import { DashboardSessionEntity } from './dashboard-session.entity';
import { DashboardUserEntity } from './dashboard-user.entity';
import type { Reader, Transaction } from '../database/transaction';

export type SessionWithUser = DashboardSessionEntity & { user: DashboardUserEntity };

/** SQL of dashboard sessions. Reads take a Reader, writes a Transaction. */
@Injectable()
export class DashboardSessionsRepository {
  async create(tx: Transaction, input: { tokenHash: string; userId: string; merchantId: string; csrfToken: string; now: Date }): Promise<DashboardSessionEntity> {
    const manager = tx.manager;
    return manager.save(
      DashboardSessionEntity,
      manager.create(DashboardSessionEntity, {
        id: generateId('sess'),
        token_hash: input.tokenHash,
        user_id: input.userId,
        merchant_id: input.merchantId,
        csrf_token: input.csrfToken,
        last_seen_at: input.now,
        ended_at: null,
        checksummed: true,
      }),
    );
  }

  /** The session of a token unless it was ended; the caller decides about idleness. */
  findOpenByTokenHash(db: Reader, tokenHash: string): Promise<SessionWithUser | null> {
    return db.manager.findOne(DashboardSessionEntity, {
      where: { token_hash: tokenHash, ended_at: IsNull() },
      relations: { user: true },
    }) as Promise<SessionWithUser | null>;
  }

  /** Hashes of open sessions whose token has no checksum (LegacyCredentialFilter); a partial index keeps this small. */
  async listLegacyTokenHashes(db: Reader): Promise<string[]> {
    const rows = await db.manager.find(DashboardSessionEntity, { select: { token_hash: true }, where: { checksummed: false, ended_at: IsNull() } });
    return rows.map((row) => row.token_hash);
  }

  async touch(tx: Transaction, sessionId: string, now: Date): Promise<void> {
    await tx.manager.update(DashboardSessionEntity, { id: sessionId }, { last_seen_at: now });
  }

  /** Ends every open session of the user but `exceptSessionId` (a password reset keeps the browser that made it). */
  async endAllOfUser(tx: Transaction, userId: string, now: Date, exceptSessionId: string | null): Promise<void> {
    await tx.manager.update(
      DashboardSessionEntity,
      { user_id: userId, ended_at: IsNull(), ...(exceptSessionId ? { id: Not(exceptSessionId) } : {}) },
      { ended_at: now },
    );
  }

  async end(tx: Transaction, sessionId: string, now: Date): Promise<void> {
    await tx.manager.update(DashboardSessionEntity, { id: sessionId, ended_at: IsNull() }, { ended_at: now });
  }
}
