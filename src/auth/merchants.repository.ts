import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { generateId } from '../ids/id';
import { MerchantEntity, Plan } from './merchant.entity';

/** Merchants are the tenants themselves, so these queries are keyed by the merchant id. */
@Injectable()
export class MerchantsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(name: string, plan: Plan, manager: EntityManager = this.dataSource.manager): Promise<MerchantEntity> {
    return manager.save(MerchantEntity, manager.create(MerchantEntity, { id: generateId('mer'), name, plan }));
  }

  findById(merchantId: string): Promise<MerchantEntity | null> {
    return this.dataSource.manager.findOne(MerchantEntity, { where: { id: merchantId } });
  }

  async update(merchantId: string, changes: Partial<Pick<MerchantEntity, 'name' | 'plan'>>): Promise<MerchantEntity | null> {
    if (Object.keys(changes).length > 0) {
      await this.dataSource.manager.update(MerchantEntity, { id: merchantId }, changes);
    }
    return this.findById(merchantId);
  }

  count(): Promise<number> {
    return this.dataSource.manager.count(MerchantEntity);
  }
}
