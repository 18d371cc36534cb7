import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { CustomerEntity } from '../customers/customer.entity';
import { runOutSql } from '../entitlements/effective-status';
import { EntitlementEntity } from '../entitlements/entitlement.entity';
import { applyKeysetPage } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { ProductEntity } from '../products/product.entity';
import { DownloadEntity } from './download.entity';

/** SQL of downloads, including the entitlement use a download counts. */
@Injectable()
export class DownloadsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The entitlement locked for the download's transaction, so its uses are counted in turn. */
  lockEntitlement(manager: EntityManager, tenant: Tenant, entitlementId: string): Promise<EntitlementEntity | null> {
    return manager
      .createQueryBuilder(EntitlementEntity, 'entitlement')
      .setLock('pessimistic_write')
      .where('entitlement.id = :entitlementId AND entitlement.merchant_id = :merchantId AND entitlement.mode = :mode', {
        entitlementId,
        merchantId: tenant.merchantId,
        mode: tenant.mode,
      })
      .getOne();
  }

  findProduct(manager: EntityManager, tenant: Tenant, productId: string): Promise<ProductEntity | null> {
    return manager.findOne(ProductEntity, { where: { id: productId, merchant_id: tenant.merchantId, mode: tenant.mode } });
  }

  /**
   * One use of the entitlement. An exhausted usage-limited entitlement reads as expired from now
   * on (effective status); the expiry sweeper persists that and publishes entitlement.expired.
   */
  async recordEntitlementUse(manager: EntityManager, tenant: Tenant, entitlementId: string): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(EntitlementEntity)
      .set({ usage_count: () => 'usage_count + 1', updated_at: () => 'now()' })
      .where('id = :entitlementId AND merchant_id = :merchantId AND mode = :mode', {
        entitlementId,
        merchantId: tenant.merchantId,
        mode: tenant.mode,
      })
      .execute();
  }

  insert(manager: EntityManager, download: DownloadEntity): Promise<DownloadEntity> {
    return manager.save(DownloadEntity, download);
  }

  findCustomer(tenant: Tenant, customerId: string): Promise<CustomerEntity | null> {
    return this.dataSource.manager.findOne(CustomerEntity, {
      where: { id: customerId, merchant_id: tenant.merchantId, mode: tenant.mode },
    });
  }

  /**
   * A keyset page (limit + 1) of the customer's entitlements that are active at `now` (status,
   * expiry and usage) and whose product delivers by FILE with at least one CONFIRMED file.
   */
  downloadableEntitlements(tenant: Tenant, customerId: string, now: Date, page: PageRequest): Promise<EntitlementEntity[]> {
    const query = this.dataSource.manager
      .createQueryBuilder(EntitlementEntity, 'entitlement')
      .innerJoin(
        ProductEntity,
        'product',
        'product.id = entitlement.product_id AND product.merchant_id = entitlement.merchant_id AND product.mode = entitlement.mode',
      )
      .where('entitlement.merchant_id = :merchantId AND entitlement.mode = :mode AND entitlement.customer_id = :customerId', {
        merchantId: tenant.merchantId,
        mode: tenant.mode,
        customerId,
      })
      .andWhere(`entitlement.status = 'active'`)
      .andWhere(`NOT ${runOutSql('entitlement', ':now')}`, { now })
      .andWhere(`product.fulfillment_config->>'delivery_method' = 'FILE'`)
      .andWhere(
        `EXISTS (SELECT 1 FROM files file
                  WHERE file.merchant_id = entitlement.merchant_id AND file.mode = entitlement.mode
                    AND file.upload_status = 'CONFIRMED'
                    AND product.fulfillment_config->'file_ids' @> jsonb_build_array(file.id))`,
      );
    return applyKeysetPage(query, 'entitlement', page).getMany();
  }

  findProducts(tenant: Tenant, productIds: string[]): Promise<ProductEntity[]> {
    if (productIds.length === 0) return Promise.resolve([]);
    return this.dataSource.manager
      .createQueryBuilder(ProductEntity, 'product')
      .where('product.merchant_id = :merchantId AND product.mode = :mode', { merchantId: tenant.merchantId, mode: tenant.mode })
      .andWhere('product.id IN (:...productIds)', { productIds })
      .getMany();
  }
}
