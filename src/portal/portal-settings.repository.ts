import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import type { Reader, Transaction } from '../database/transaction';
import { PortalSettingsEntity } from './portal-settings.entity';

export type PortalSettingsChanges = Partial<Pick<PortalSettingsEntity, 'display_name' | 'accent_color' | 'logo_url' | 'support_url'>>;

/** SQL of the portal's branding, one row per merchant and mode. */
@Injectable()
export class PortalSettingsRepository {
  find(db: Reader, tenant: Tenant): Promise<PortalSettingsEntity | null> {
    return db.manager.findOne(PortalSettingsEntity, { where: { merchant_id: tenant.merchantId, mode: tenant.mode } });
  }

  /** Writes the given fields (absent ones keep their value; the row is made on the first change), locked so two changes apply in turn. */
  async update(tx: Transaction, tenant: Tenant, changes: PortalSettingsChanges): Promise<PortalSettingsEntity> {
    await tx.manager
      .createQueryBuilder()
      .insert()
      .into(PortalSettingsEntity)
      .values({ merchant_id: tenant.merchantId, mode: tenant.mode })
      .orIgnore()
      .execute();
    const current = await tx.manager.findOneOrFail(PortalSettingsEntity, {
      where: { merchant_id: tenant.merchantId, mode: tenant.mode },
      lock: { mode: 'pessimistic_write' },
    });
    return tx.manager.save(PortalSettingsEntity, { ...current, ...changes });
  }
}
