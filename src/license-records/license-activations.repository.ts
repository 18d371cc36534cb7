import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { Tenant } from '../database/tenant';
import { TenantTable } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { LicenseActivationEntity } from './license-activation.entity';

export type NewLicenseActivation = Pick<LicenseActivationEntity, 'id' | 'license_key_id' | 'fingerprint' | 'name' | 'metadata' | 'test_clock_id' | 'created_at' | 'last_seen_at'>;

/** An activation the sweep releases, with its tenant (the real-time sweep crosses tenants). */
export type StaleActivation = LicenseActivationEntity;

/** SQL of license_activations. */
@Injectable()
export class LicenseActivationsRepository {
  private readonly table = new TenantTable(LicenseActivationEntity, 'activation');

  /** How many activations each of these keys has (absent: none). */
  async countsByKey(db: Reader, tenant: Tenant, licenseKeyIds: string[]): Promise<Map<string, number>> {
    if (licenseKeyIds.length === 0) return new Map();
    const rows = await this.table
      .select(db.manager, tenant)
      .select('activation.license_key_id', 'license_key_id')
      .addSelect('COUNT(*)', 'count')
      .andWhere('activation.license_key_id IN (:...licenseKeyIds)', { licenseKeyIds })
      .groupBy('activation.license_key_id')
      .getRawMany<{ license_key_id: string; count: string }>();
    return new Map(rows.map((row) => [row.license_key_id, Number(row.count)]));
  }

  findByFingerprint(db: Reader, tenant: Tenant, licenseKeyId: string, fingerprint: string): Promise<LicenseActivationEntity | null> {
    return this.table.findOne(db.manager, tenant, { license_key_id: licenseKeyId, fingerprint });
  }

  findById(db: Reader, tenant: Tenant, licenseKeyId: string, activationId: string): Promise<LicenseActivationEntity | null> {
    return this.table.findOne(db.manager, tenant, { license_key_id: licenseKeyId, id: activationId });
  }

  insert(tx: Transaction, tenant: Tenant, activation: NewLicenseActivation): Promise<LicenseActivationEntity> {
    return this.table.insert(tx.manager, tenant, activation as QueryDeepPartialEntity<NewLicenseActivation>);
  }

  /** The activation seen at `seenAt`, or null when it is gone (released by the sweep or deactivated meanwhile). */
  touch(tx: Transaction, tenant: Tenant, activationId: string, seenAt: Date): Promise<LicenseActivationEntity | null> {
    return this.table.updateById(tx.manager, tenant, activationId, { last_seen_at: seenAt });
  }

  /** Deletes the activation; whether it was there (a concurrent deactivation may have taken it). */
  async delete(tx: Transaction, tenant: Tenant, activationId: string): Promise<boolean> {
    return (await this.table.delete(tx.manager, tenant, { id: activationId })) > 0;
  }

  /** One keyset page of the key's activations, newest first, and their total. */
  listForKey(db: Reader, tenant: Tenant, licenseKeyId: string, page: PageRequest): Promise<{ rows: LicenseActivationEntity[]; total: number }> {
    return fetchPageWithTotal(() => this.table.select(db.manager, tenant).andWhere('activation.license_key_id = :licenseKeyId', { licenseKeyId }), 'activation', page);
  }

  /**
   * Activations of customers on real time whose key has floating seats and that were not seen for
   * its activation_ttl_seconds at `now`, locked (SKIP LOCKED: instances sweep side by side, and an
   * activation a heartbeat holds is left to the next sweep), least recently seen first.
   */
  lockStaleAcrossTenants(tx: Transaction, now: Date, limit: number): Promise<StaleActivation[]> {
    return this.stale(tx, 'activation.test_clock_id IS NULL', { now }, limit);
  }

  /** The same, for the customers of one test clock at its time `now` (the clock's advance). */
  lockStaleForTestClock(tx: Transaction, tenant: Tenant, testClockId: string, now: Date, limit: number): Promise<StaleActivation[]> {
    return this.stale(
      tx,
      'activation.merchant_id = :merchantId AND activation.mode = :mode AND activation.test_clock_id = :testClockId',
      { now, merchantId: tenant.merchantId, mode: tenant.mode, testClockId },
      limit,
    );
  }

  private stale(tx: Transaction, scope: string, parameters: Record<string, unknown>, limit: number): Promise<StaleActivation[]> {
    return tx.manager
      .createQueryBuilder(LicenseActivationEntity, 'activation')
      .innerJoin('activation.license_key', 'license')
      .where(scope, parameters)
      .andWhere('license.activation_ttl_seconds IS NOT NULL')
      .andWhere("activation.last_seen_at <= CAST(:now AS timestamptz) - license.activation_ttl_seconds * interval '1 second'")
      .orderBy('activation.last_seen_at', 'ASC')
      .limit(limit)
      .setLock('pessimistic_write', undefined, ['activation'])
      .setOnLocked('skip_locked')
      .getMany();
  }
}
