import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { EntitlementEntity } from '../entitlements/entitlement.entity';
import { generateId } from '../ids/id';
import { fetchPageWithTotal } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { CustomerEntity } from './customer.entity';

@Injectable()
export class CustomersRepository {
  constructor(private readonly dataSource: DataSource) {}

  findById(tenant: Tenant, customerId: string, manager: EntityManager = this.dataSource.manager): Promise<CustomerEntity | null> {
    return manager.findOne(CustomerEntity, { where: { id: customerId, merchant_id: tenant.merchantId, mode: tenant.mode } });
  }

  findByStoreId(tenant: Tenant, storeCustomerId: string): Promise<CustomerEntity | null> {
    return this.dataSource.manager.findOne(CustomerEntity, {
      where: { store_customer_id: storeCustomerId, merchant_id: tenant.merchantId, mode: tenant.mode },
    });
  }

  /**
   * The customer with this store id, created if new. One statement, race-free: a concurrent
   * insert of the same store id waits on the unique index and then returns the existing row.
   */
  async upsertByStoreId(manager: EntityManager, tenant: Tenant, storeCustomerId: string): Promise<CustomerEntity> {
    const rows: { id: string }[] = await manager.query(
      `INSERT INTO customers (id, merchant_id, mode, store_customer_id)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (merchant_id, mode, store_customer_id) DO UPDATE SET store_customer_id = EXCLUDED.store_customer_id
       RETURNING id`,
      [generateId('cus'), tenant.merchantId, tenant.mode, storeCustomerId],
    );
    const customer = await this.findById(tenant, rows[0].id, manager);
    if (!customer) throw new Error('The upserted customer vanished');
    return customer;
  }

  /** One keyset page (limit + 1 rows) of a customer's entitlements, every status, and the total. */
  async listEntitlements(
    tenant: Tenant,
    customerId: string,
    page: PageRequest,
  ): Promise<{ rows: EntitlementEntity[]; total: number }> {
    const base = () =>
      this.dataSource.manager
        .createQueryBuilder(EntitlementEntity, 'entitlement')
        .where('entitlement.merchant_id = :merchantId AND entitlement.mode = :mode AND entitlement.customer_id = :customerId', {
          merchantId: tenant.merchantId,
          mode: tenant.mode,
          customerId,
        });
    return fetchPageWithTotal(base, 'entitlement', page);
  }
}
