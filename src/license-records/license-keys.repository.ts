import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import { TenantTable } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { LicenseKeyEntity } from './license-key.entity';

export type NewLicenseKey = Pick<
  LicenseKeyEntity,
  'id' | 'entitlement_id' | 'customer_id' | 'product_id' | 'test_clock_id' | 'key_hash' | 'key_encrypted' | 'activation_limit' | 'activation_ttl_seconds'
>;

export interface LicenseKeyFilters {
  entitlementId?: string;
  customerId?: string;
  productId?: string;
}

/** SQL of license_keys. */
@Injectable()
export class LicenseKeysRepository {
  private readonly table = new TenantTable(LicenseKeyEntity, 'license');

  /** The key of this hash, whoever's it is: the app routes know no tenant until the key names one. */
  findByHash(db: Reader, keyHash: string): Promise<LicenseKeyEntity | null> {
    return db.manager.findOne(LicenseKeyEntity, { where: { key_hash: keyHash } });
  }

  findById(db: Reader, tenant: Tenant, licenseKeyId: string): Promise<LicenseKeyEntity | null> {
    return this.table.findOne(db.manager, tenant, { id: licenseKeyId });
  }

  /** The key's row, locked until the transaction ends: activations of one key take their turn (the limit stays exact). */
  lockById(tx: Transaction, tenant: Tenant, licenseKeyId: string): Promise<LicenseKeyEntity | null> {
    return this.table.lockById(tx.manager, tenant, licenseKeyId);
  }

  findByEntitlementIds(db: Reader, tenant: Tenant, entitlementIds: string[]): Promise<LicenseKeyEntity[]> {
    if (entitlementIds.length === 0) return Promise.resolve([]);
    return this.table.select(db.manager, tenant).andWhere('license.entitlement_id IN (:...entitlementIds)', { entitlementIds }).getMany();
  }

  insertMany(tx: Transaction, tenant: Tenant, keys: NewLicenseKey[]): Promise<LicenseKeyEntity[]> {
    return this.table.insertMany(tx.manager, tenant, keys);
  }

  async updateActivationLimit(tx: Transaction, tenant: Tenant, licenseKeyId: string, activationLimit: number | null): Promise<LicenseKeyEntity> {
    const updated = await this.table.updateById(tx.manager, tenant, licenseKeyId, { activation_limit: activationLimit });
    if (!updated) throw new Error(`License key ${licenseKeyId} vanished inside its own transaction`);
    return updated;
  }

  /** One keyset page (limit + 1 rows) and the total, newest first. */
  list(db: Reader, tenant: Tenant, filters: LicenseKeyFilters, page: PageRequest): Promise<{ rows: LicenseKeyEntity[]; total: number }> {
    return fetchPageWithTotal(
      () => {
        const query = this.table.select(db.manager, tenant);
        if (filters.entitlementId !== undefined) query.andWhere('license.entitlement_id = :entitlementId', { entitlementId: filters.entitlementId });
        if (filters.customerId !== undefined) query.andWhere('license.customer_id = :customerId', { customerId: filters.customerId });
        if (filters.productId !== undefined) query.andWhere('license.product_id = :productId', { productId: filters.productId });
        return query;
      },
      'license',
      page,
    );
  }
}
