import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import type { Tenant } from '../database/tenant';
import type { Reader, Transaction } from '../database/transaction';
import { generateId } from '../ids/id';
import { PortalSessionEntity } from './portal-session.entity';

export interface NewPortalSession {
  customerId: string;
  returnUrl: string | null;
  linkTokenHash: string;
  linkExpiresAt: Date;
}

/** SQL of portal sessions. Reads take a Reader, writes a Transaction. */
@Injectable()
export class PortalSessionsRepository {
  create(tx: Transaction, tenant: Tenant, input: NewPortalSession): Promise<PortalSessionEntity> {
    const manager = tx.manager;
    return manager.save(
      PortalSessionEntity,
      manager.create(PortalSessionEntity, {
        id: generateId('ps'),
        merchant_id: tenant.merchantId,
        mode: tenant.mode,
        customer_id: input.customerId,
        return_url: input.returnUrl,
        link_token_hash: input.linkTokenHash,
        link_expires_at: input.linkExpiresAt,
        opened_at: null,
        cookie_token_hash: null,
        csrf_token: null,
        last_seen_at: null,
        ended_at: null,
      }),
    );
  }

  /**
   * The link's row whatever its state, across tenants: the link's token is its only credential
   * (like a license key), and the tenant is read from the row it names.
   */
  findByLinkTokenHash(db: Reader, linkTokenHash: string): Promise<PortalSessionEntity | null> {
    return db.manager.findOne(PortalSessionEntity, { where: { link_token_hash: linkTokenHash } });
  }

  /**
   * Opens the link once: one conditional UPDATE, so of two concurrent openings exactly one sets
   * the cookie and the other changes nothing (false).
   */
  async open(tx: Transaction, tenant: Tenant, sessionId: string, input: { cookieTokenHash: string; csrfToken: string; now: Date }): Promise<boolean> {
    const result = await tx.manager
      .createQueryBuilder()
      .update(PortalSessionEntity)
      .set({ opened_at: input.now, cookie_token_hash: input.cookieTokenHash, csrf_token: input.csrfToken, last_seen_at: input.now })
      .where('merchant_id = :merchantId AND mode = :mode AND id = :id', { merchantId: tenant.merchantId, mode: tenant.mode, id: sessionId })
      .andWhere('opened_at IS NULL AND link_expires_at > :now', { now: input.now })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  /** The open browser session of a cookie, across tenants (the cookie is its only credential); the caller decides about idleness. */
  findOpenByCookieTokenHash(db: Reader, cookieTokenHash: string): Promise<PortalSessionEntity | null> {
    return db.manager.findOne(PortalSessionEntity, { where: { cookie_token_hash: cookieTokenHash, ended_at: IsNull() } });
  }

  async touch(tx: Transaction, tenant: Tenant, sessionId: string, now: Date): Promise<void> {
    await tx.manager.update(PortalSessionEntity, { merchant_id: tenant.merchantId, mode: tenant.mode, id: sessionId }, { last_seen_at: now });
  }

  async end(tx: Transaction, tenant: Tenant, sessionId: string, now: Date): Promise<void> {
    await tx.manager.update(PortalSessionEntity, { merchant_id: tenant.merchantId, mode: tenant.mode, id: sessionId, ended_at: IsNull() }, { ended_at: now });
  }
}
