import { Injectable } from '@nestjs/common';
import { EntityManager, LessThanOrEqual } from 'typeorm';
import { Render, runAlone, WritePart } from '../database/combined-statement';
import type { Tenant } from '../database/tenant';
import { assertTenant, TenantTable } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { BandwidthUsageEntity } from './bandwidth-usage.entity';
import { StorageReservationEntity } from './storage-reservation.entity';
import { StorageUsageEntity } from './storage-usage.entity';

/** A download's bytes for the month's bandwidth; `hardCapBytes` null: no cap (paid plans record overage). */
export interface BandwidthCharge {
  month: string;
  bytes: number;
  includedBytes: number;
  hardCapBytes: number | null;
}

/**
 * Adds a download's bytes to the month's bandwidth, no row when a hard cap would be passed. ON
 * CONFLICT re-checks the cap on the newest row, so concurrent downloads never pass it together.
 */
/**
 * A download's bytes added to the month's bandwidth, refused (no row) when a hard cap would be
 * passed; ON CONFLICT re-checks the cap on the newest row, so concurrent downloads never pass it
 * together. One rendering for the transaction (run alone) and the combined write.
 */
function chargeBandwidthSql(tenant: Tenant, charge: BandwidthCharge): Render {
  return (parameters) => {
    const bytes = parameters.bigint(charge.bytes);
    const included = parameters.bigint(charge.includedBytes);
    const cap = parameters.bigint(charge.hardCapBytes);
    return `INSERT INTO bandwidth_usage AS usage (merchant_id, mode, month, bandwidth_bytes, overage_bytes, updated_at)
       SELECT ${parameters.text(tenant.merchantId)}, ${parameters.text(tenant.mode)}, ${parameters.text(charge.month)}, ${bytes}, GREATEST(0, ${bytes} - ${included}), now()
        WHERE ${cap} IS NULL OR ${bytes} <= ${cap}
       ON CONFLICT (merchant_id, mode, month) DO UPDATE
          SET bandwidth_bytes = usage.bandwidth_bytes + EXCLUDED.bandwidth_bytes,
              overage_bytes = GREATEST(0, usage.bandwidth_bytes + EXCLUDED.bandwidth_bytes - ${included}),
              updated_at = now()
        WHERE ${cap} IS NULL OR usage.bandwidth_bytes + EXCLUDED.bandwidth_bytes <= ${cap}
       RETURNING usage.bandwidth_bytes`;
  };
}

/** SQL of the usage meters and storage reservations. Locking methods run in the caller's transaction. */
@Injectable()
export class UsageRepository {
  private readonly storage = new TenantTable(StorageUsageEntity, 'usage');
  private readonly bandwidth = new TenantTable(BandwidthUsageEntity, 'usage');
  private readonly reservations = new TenantTable(StorageReservationEntity, 'reservation');

  /**
   * Locks (creating it if needed) the tenant's storage row: every storage decision of one merchant
   * and mode serializes on it, so parallel reservations cannot pass the quota together.
   */
  async lockStorage(tx: Transaction, tenant: Tenant): Promise<StorageUsageEntity> {
    assertTenant(tenant);
    await tx.manager
      .createQueryBuilder()
      .insert()
      .into(StorageUsageEntity)
      .values({ merchant_id: tenant.merchantId, mode: tenant.mode, storage_used_bytes: 0 })
      .orIgnore()
      .execute();
    return this.storage.select(tx.manager, tenant).setLock('pessimistic_write').getOneOrFail();
  }

  async addStorage(tx: Transaction, tenant: Tenant, bytes: number): Promise<void> {
    await this.storage.update(tx.manager, tenant, {}, { storage_used_bytes: () => `GREATEST(storage_used_bytes + ${Math.trunc(bytes)}, 0)` });
  }

  /** Declared sizes of the reservations still valid at `now`, optionally but one. */
  async reservedBytes(db: Reader, tenant: Tenant, now: Date, excludeFileId?: string): Promise<number> {
    return this.sumReservations(db.manager, tenant, now, excludeFileId);
  }

  async insertReservation(tx: Transaction, tenant: Tenant, reservation: { fileId: string; bytes: number; expiresAt: Date }): Promise<void> {
    await this.reservations.insert(tx.manager, tenant, { file_id: reservation.fileId, bytes: reservation.bytes, expires_at: reservation.expiresAt });
  }

  findReservation(tx: Transaction, tenant: Tenant, fileId: string): Promise<StorageReservationEntity | null> {
    return this.reservations.findOne(tx.manager, tenant, { file_id: fileId });
  }

  /** Forgets the tenant's reservations that ended unconfirmed (their upload URL expired). */
  async deleteExpiredReservations(tx: Transaction, tenant: Tenant, now: Date): Promise<void> {
    await this.reservations.delete(tx.manager, tenant, { expires_at: LessThanOrEqual(now) });
  }

  async deleteReservation(tx: Transaction, tenant: Tenant, fileId: string): Promise<void> {
    await this.reservations.delete(tx.manager, tenant, { file_id: fileId });
  }

  /**
   * Adds a download's bytes to the month's bandwidth in one statement, refused (not accepted) when a
   * hard cap would be passed. The row lock is taken here and held only until the caller commits, so a
   * download's transaction runs this last: a merchant's downloads queue on the row for the commit
   * only, not for their whole transaction. ON CONFLICT re-checks the cap on the newest row, so
   * concurrent downloads never pass it together.
   */
  async chargeBandwidth(
    tx: Transaction,
    tenant: Tenant,
    charge: BandwidthCharge,
  ): Promise<{ accepted: boolean; bandwidthBytes: number }> {
    assertTenant(tenant);
    const rows = await runAlone<{ bandwidth_bytes: string }>(tx.manager, { name: 'bandwidth_charge', render: chargeBandwidthSql(tenant, charge) });
    if (rows.length > 0) return { accepted: true, bandwidthBytes: Number(rows[0].bandwidth_bytes) };
    const current = await this.bandwidth.findOne(tx.manager, tenant, { month: charge.month });
    return { accepted: false, bandwidthBytes: current?.bandwidth_bytes ?? 0 };
  }

  /** chargeBandwidth as a part of a combined write, refused (`refusal`) where that one is not accepted. */
  chargeBandwidthPart(tenant: Tenant, charge: BandwidthCharge, refusal: string): WritePart {
    assertTenant(tenant);
    return { name: 'bandwidth_charge', render: chargeBandwidthSql(tenant, charge), refusal };
  }

  findStorage(db: Reader, tenant: Tenant): Promise<StorageUsageEntity | null> {
    return this.storage.findOne(db.manager, tenant, {});
  }

  findBandwidth(db: Reader, tenant: Tenant, month: string): Promise<BandwidthUsageEntity | null> {
    return this.bandwidth.findOne(db.manager, tenant, { month });
  }

  /** The month's meters of these merchants, both modes (the month's close: an operator job across tenants). */
  findBandwidthOfMerchants(db: Reader, merchantIds: readonly string[], month: string): Promise<BandwidthUsageEntity[]> {
    if (merchantIds.length === 0) return Promise.resolve([]);
    return db.manager
      .createQueryBuilder(BandwidthUsageEntity, 'usage')
      .where('usage.merchant_id IN (:...merchantIds) AND usage.month = :month', { merchantIds, month })
      .getMany();
  }

  private async sumReservations(manager: EntityManager, tenant: Tenant, now: Date, excludeFileId?: string): Promise<number> {
    const query = this.reservations
      .select(manager, tenant)
      .select('COALESCE(SUM(reservation.bytes), 0)', 'reserved')
      .andWhere('reservation.expires_at > :now', { now });
    if (excludeFileId) query.andWhere('reservation.file_id <> :excludeFileId', { excludeFileId });
    const row = await query.getRawOne<{ reserved: string | number }>();
    return Number(row?.reserved ?? 0);
  }
}
