import { Injectable } from '@nestjs/common';
import { IsNull, MoreThan } from 'typeorm';
import { generateId } from '../ids/id';
import { DashboardSetupLinkEntity } from './dashboard-setup-link.entity';
import { DashboardUserEntity } from './dashboard-user.entity';
import type { Reader, Transaction } from '../database/transaction';
import type { Role } from '../auth/roles';

/** A member as a change of the team sees it, locked. */
export interface LockedMember {
  id: string;
  role: Role;
}

/**
 * SQL of dashboard users and their setup links. Users are keyed by merchant or by email (sign-in
 * names no merchant). Reads take a Reader, writes a Transaction.
 */
@Injectable()
export class DashboardUsersRepository {
  findByEmail(db: Reader, email: string): Promise<DashboardUserEntity | null> {
    return db.manager.findOne(DashboardUserEntity, { where: { email } });
  }

  findById(db: Reader, userId: string): Promise<DashboardUserEntity | null> {
    return db.manager.findOne(DashboardUserEntity, { where: { id: userId } });
  }

  /** The user with this email, created for the merchant when there is none (a concurrent twin loses to the unique index). */
  async findOrCreate(tx: Transaction, merchantId: string, email: string, role: Role, testOnly: boolean): Promise<DashboardUserEntity> {
    await tx.manager
      .createQueryBuilder()
      .insert()
      .into(DashboardUserEntity)
      .values({ id: generateId('user'), merchant_id: merchantId, email, password_hash: null, role, test_only: testOnly })
      .orIgnore()
      .execute();
    return (await this.findByEmail(tx, email)) as DashboardUserEntity;
  }

  /** A new user of the merchant with this email, or null when the email is anybody's already (one statement, race-free). */
  async createIfNew(tx: Transaction, merchantId: string, email: string, role: Role, testOnly: boolean): Promise<DashboardUserEntity | null> {
    const result = await tx.manager
      .createQueryBuilder()
      .insert()
      .into(DashboardUserEntity)
      .values({ id: generateId('user'), merchant_id: merchantId, email, password_hash: null, role, test_only: testOnly })
      .orIgnore()
      .returning('id')
      .execute();
    const inserted = (result.raw as Array<{ id: string }>)[0];
    return inserted ? this.findById(tx, inserted.id) : null;
  }

  async addSetupLink(tx: Transaction, userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await tx.manager.insert(DashboardSetupLinkEntity, { token_hash: tokenHash, user_id: userId, expires_at: expiresAt, used_at: null });
  }

  /** Marks an unused, unexpired link used and returns its user id; null for any other link. One statement, so a link works once. */
  async claimSetupLink(tx: Transaction, tokenHash: string, now: Date): Promise<string | null> {
    const result = await tx.manager.update(
      DashboardSetupLinkEntity,
      { token_hash: tokenHash, used_at: IsNull(), expires_at: MoreThan(now) },
      { used_at: now },
    );
    if (!result.affected) return null;
    const link = await tx.manager.findOne(DashboardSetupLinkEntity, { where: { token_hash: tokenHash } });
    return link?.user_id ?? null;
  }

  async setPasswordHash(tx: Transaction, userId: string, passwordHash: string): Promise<void> {
    await tx.manager.update(DashboardUserEntity, { id: userId }, { password_hash: passwordHash });
  }

  async recordSignIn(tx: Transaction, userId: string, now: Date): Promise<void> {
    await tx.manager.update(DashboardUserEntity, { id: userId }, { last_signed_in_at: now });
  }

  /** The merchant's users, oldest first. */
  listByMerchant(db: Reader, merchantId: string): Promise<DashboardUserEntity[]> {
    return db.manager.find(DashboardUserEntity, { where: { merchant_id: merchantId }, order: { created_at: 'ASC', id: 'ASC' } });
  }

  /** The merchant's user with this id, or null (another merchant's users are nobody's here). */
  findOfMerchant(db: Reader, merchantId: string, userId: string): Promise<DashboardUserEntity | null> {
    return db.manager.findOne(DashboardUserEntity, { where: { id: userId, merchant_id: merchantId } });
  }

  /** Whether the merchant has any dashboard user yet (its first one becomes owner). */
  async anyOfMerchant(db: Reader, merchantId: string): Promise<boolean> {
    return (await db.manager.count(DashboardUserEntity, { where: { merchant_id: merchantId } })) > 0;
  }

  /**
   * The merchant's users, locked in id order: a change of the team (a removal, a role) decides on
   * them, so two changes at once can't each see the other and leave the merchant without an owner.
   */
  lockTeam(tx: Transaction, merchantId: string): Promise<LockedMember[]> {
    return tx.manager.query('SELECT id, role FROM dashboard_users WHERE merchant_id = $1 ORDER BY id FOR UPDATE', [merchantId]);
  }

  /** Deletes the user with its sessions and setup links (cascade). */
  async delete(tx: Transaction, merchantId: string, userId: string): Promise<void> {
    await tx.manager.delete(DashboardUserEntity, { id: userId, merchant_id: merchantId });
  }

  async update(tx: Transaction, merchantId: string, userId: string, change: { role?: Role; test_only?: boolean }): Promise<void> {
    if (change.role === undefined && change.test_only === undefined) return;
    await tx.manager.update(DashboardUserEntity, { id: userId, merchant_id: merchantId }, change);
  }
}
