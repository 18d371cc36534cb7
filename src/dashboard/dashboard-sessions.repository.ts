import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, Not } from 'typeorm';
import { generateId } from '../ids/id';
import { DashboardSessionEntity } from './dashboard-session.entity';
import { DashboardUserEntity } from './dashboard-user.entity';
import type { Transaction } from '../database/transaction';

export type SessionWithUser = DashboardSessionEntity & { user: DashboardUserEntity };

/** SQL of dashboard sessions. */
@Injectable()
export class DashboardSessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(input: { tokenHash: string; userId: string; merchantId: string; csrfToken: string; now: Date }): Promise<DashboardSessionEntity> {
    const manager = this.dataSource.manager;
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
  findOpenByTokenHash(tokenHash: string): Promise<SessionWithUser | null> {
    return this.dataSource.manager.findOne(DashboardSessionEntity, {
      where: { token_hash: tokenHash, ended_at: IsNull() },
      relations: { user: true },
    }) as Promise<SessionWithUser | null>;
  }

  /** Hashes of open sessions whose token has no checksum (LegacyCredentialFilter); a partial index keeps this small. */
  async listLegacyTokenHashes(): Promise<string[]> {
    const rows = await this.dataSource.manager.find(DashboardSessionEntity, { select: { token_hash: true }, where: { checksummed: false, ended_at: IsNull() } });
    return rows.map((row) => row.token_hash);
  }

  async touch(sessionId: string, now: Date): Promise<void> {
    await this.dataSource.manager.update(DashboardSessionEntity, { id: sessionId }, { last_seen_at: now });
  }

  /** Ends every open session of the user but `exceptSessionId` (a password reset keeps the browser that made it). */
  async endAllOfUser(tx: Transaction, userId: string, now: Date, exceptSessionId: string | null): Promise<void> {
    await tx.manager.update(
      DashboardSessionEntity,
      { user_id: userId, ended_at: IsNull(), ...(exceptSessionId ? { id: Not(exceptSessionId) } : {}) },
      { ended_at: now },
    );
  }

  async end(sessionId: string, now: Date): Promise<void> {
    await this.dataSource.manager.update(DashboardSessionEntity, { id: sessionId, ended_at: IsNull() }, { ended_at: now });
  }
}
