import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { applyKeysetPage } from '../pagination/keyset';
import { PageRequest } from '../pagination/page';
import { ProductEntity } from './product.entity';

@Injectable()
export class ProductsRepository {
  constructor(private readonly dataSource: DataSource) {}

  findById(tenant: Tenant, productId: string): Promise<ProductEntity | null> {
    return this.dataSource.manager.findOne(ProductEntity, {
      where: { id: productId, merchant_id: tenant.merchantId, mode: tenant.mode },
    });
  }

  /** One keyset page (limit + 1 rows) and the total, newest first. */
  async list(tenant: Tenant, page: PageRequest): Promise<{ rows: ProductEntity[]; total: number }> {
    const base = () =>
      this.dataSource.manager
        .createQueryBuilder(ProductEntity, 'product')
        .where('product.merchant_id = :merchantId AND product.mode = :mode', {
          merchantId: tenant.merchantId,
          mode: tenant.mode,
        });
    const [rows, total] = await Promise.all([applyKeysetPage(base(), 'product', page).getMany(), base().getCount()]);
    return { rows, total };
  }
}
