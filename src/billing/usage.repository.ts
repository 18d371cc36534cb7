import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { MerchantEntity } from '../auth/merchant.entity';
import type { Tenant } from '../auth/tenant';
import { BandwidthUsageEntity } from './bandwidth-usage.entity';
import { StorageUsageEntity } from './storage-usage.entity';

/** SQL of the usage meters. Locking methods must run inside the caller's transaction (`manager`). */
@Injectable()
export class UsageRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Locks (creating it if needed) the tenant's storage row: every storage decision of one merchant
   * and mode serializes on it, so parallel reservations cannot pass the quota together.
   */
  async lockStorage(manager: EntityManager, tenant: Tenant): Promise<StorageUsageEntity> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(StorageUsageEntity)
      .values({ merchant_id: tenant.merchantId, mode: tenant.mode, storage_used_bytes: 0 })
      .orIgnore()
      .execute();
    return manager
      .createQueryBuilder(StorageUsageEntity, 'usage')
      .setLock('pessimistic_write')
      .where('usage.merchant_id = :merchantId AND usage.mode = :mode', { merchantId: tenant.merchantId, mode: tenant.mode })
      .getOneOrFail();
  }

  async addStorage(manager: EntityManager, tenant: Tenant, bytes: number): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(StorageUsageEntity)
      .set({ storage_used_bytes: () => `GREATEST(storage_used_bytes + ${Math.trunc(bytes)}, 0)` })
      .where('merchant_id = :merchantId AND mode = :mode', { merchantId: tenant.merchantId, mode: tenant.mode })
      .execute();
  }

  /** Declared sizes of PENDING uploads whose URL is still valid at `now` (the reservations). */
  async reservedBytes(manager: EntityManager, tenant: Tenant, now: Date, excludeFileId?: string): Promise<number> {
    const query = manager
      .createQueryBuilder()
      .select('COALESCE(SUM(file.file_size), 0)', 'reserved')
      .from('files', 'file')
      .where('file.merchant_id = :merchantId AND file.mode = :mode', { merchantId: tenant.merchantId, mode: tenant.mode })
      .andWhere(`file.upload_status = 'PENDING' AND file.upload_expires_at > :now`, { now });
    if (excludeFileId) query.andWhere('file.id <> :excludeFileId', { excludeFileId });
    const row = await query.getRawOne<{ reserved: string | number }>();
    return Number(row?.reserved ?? 0);
  }

  /** Locks (creating it if needed) the tenant's bandwidth row of one month. */
  async lockBandwidth(manager: EntityManager, tenant: Tenant, month: string): Promise<BandwidthUsageEntity> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(BandwidthUsageEntity)
      .values({ merchant_id: tenant.merchantId, mode: tenant.mode, month, bandwidth_bytes: 0, overage_bytes: 0 })
      .orIgnore()
      .execute();
    return manager
      .createQueryBuilder(BandwidthUsageEntity, 'usage')
      .setLock('pessimistic_write')
      .where('usage.merchant_id = :merchantId AND usage.mode = :mode AND usage.month = :month', {
        merchantId: tenant.merchantId,
        mode: tenant.mode,
        month,
      })
      .getOneOrFail();
  }

  async saveBandwidth(manager: EntityManager, usage: BandwidthUsageEntity): Promise<void> {
    await manager.update(
      BandwidthUsageEntity,
      { merchant_id: usage.merchant_id, mode: usage.mode, month: usage.month },
      { bandwidth_bytes: usage.bandwidth_bytes, overage_bytes: usage.overage_bytes },
    );
  }

  /** The merchant's plan, read in the caller's transaction. */
  findMerchant(manager: EntityManager | undefined, merchantId: string): Promise<MerchantEntity | null> {
    return (manager ?? this.dataSource.manager).findOne(MerchantEntity, { where: { id: merchantId } });
  }

  findStorage(tenant: Tenant): Promise<StorageUsageEntity | null> {
    return this.dataSource.manager.findOne(StorageUsageEntity, { where: { merchant_id: tenant.merchantId, mode: tenant.mode } });
  }

  findBandwidth(tenant: Tenant, month: string): Promise<BandwidthUsageEntity | null> {
    return this.dataSource.manager.findOne(BandwidthUsageEntity, {
      where: { merchant_id: tenant.merchantId, mode: tenant.mode, month },
    });
  }

  reservedBytesNow(tenant: Tenant, now: Date): Promise<number> {
    return this.reservedBytes(this.dataSource.manager, tenant, now);
  }
}
