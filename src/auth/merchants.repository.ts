import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Reader } from '../database/transaction';
import { generateId } from '../ids/id';
import { MerchantEntity, Plan } from './merchant.entity';

/** Merchants are the tenants themselves, so these queries are keyed by the merchant id. */
@Injectable()
export class MerchantsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(name: string, plan: Plan): Promise<MerchantEntity> {
    const manager = this.dataSource.manager;
    return manager.save(MerchantEntity, manager.create(MerchantEntity, { id: generateId('mer'), name, plan }));
  }

  findById(db: Reader, merchantId: string): Promise<MerchantEntity | null> {
    return db.manager.findOne(MerchantEntity, { where: { id: merchantId } });
  }

  async update(merchantId: string, changes: Partial<Pick<MerchantEntity, 'name' | 'plan'>>): Promise<MerchantEntity | null> {
    if (Object.keys(changes).length > 0) {
      await this.dataSource.manager.update(MerchantEntity, { id: merchantId }, changes);
    }
    return this.dataSource.manager.findOne(MerchantEntity, { where: { id: merchantId } });
  }

  count(): Promise<number> {
    return this.dataSource.manager.count(MerchantEntity);
  }
}
