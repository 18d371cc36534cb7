import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Tenant } from '../database/tenant';
import { TenantTable } from '../database/tenant-table';
import type { Reader, Transaction } from '../database/transaction';
import { ProductBundleItemEntity } from './product-bundle-item.entity';

/** SQL of product_bundle_items: which products a bundle includes, in order. */
@Injectable()
export class ProductBundleItemsRepository {
  private readonly table = new TenantTable(ProductBundleItemEntity, 'item');

  /** The bundle's included product ids, in order ([] for a product that is not a bundle). */
  async includedIdsOf(db: Reader, tenant: Tenant, bundleProductId: string): Promise<string[]> {
    return (await this.includedIdsOfMany(db, tenant, [bundleProductId])).get(bundleProductId) ?? [];
  }

  /** Each of these products' included product ids, in order (absent for a product that is not a bundle). */
  async includedIdsOfMany(db: Reader, tenant: Tenant, bundleProductIds: string[]): Promise<Map<string, string[]>> {
    const included = new Map<string, string[]>();
    if (bundleProductIds.length === 0) return included;
    const items = await this.table.find(db.manager, tenant, { bundle_product_id: In([...new Set(bundleProductIds)]) }, { position: 'ASC' });
    for (const item of items) included.set(item.bundle_product_id, [...(included.get(item.bundle_product_id) ?? []), item.included_product_id]);
    return included;
  }

  /** Of these products, those that are bundles (include at least one product). */
  async bundlesAmong(db: Reader, tenant: Tenant, productIds: string[]): Promise<Set<string>> {
    if (productIds.length === 0) return new Set();
    const items = await this.table.find(db.manager, tenant, { bundle_product_id: In(productIds) });
    return new Set(items.map((item) => item.bundle_product_id));
  }

  /** Whether some bundle includes this product. */
  async isIncluded(db: Reader, tenant: Tenant, productId: string): Promise<boolean> {
    return (await this.table.findOne(db.manager, tenant, { included_product_id: productId })) !== null;
  }

  /** Makes `productIds` the bundle's included products, in that order. */
  async replace(tx: Transaction, tenant: Tenant, bundleProductId: string, productIds: string[]): Promise<void> {
    await this.table.delete(tx.manager, tenant, { bundle_product_id: bundleProductId });
    for (const [position, productId] of productIds.entries()) {
      await this.table.insert(tx.manager, tenant, { bundle_product_id: bundleProductId, included_product_id: productId, position });
    }
  }
}
