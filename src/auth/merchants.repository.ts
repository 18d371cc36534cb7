import { Injectable } from '@nestjs/common';
import type { Reader, Transaction } from '../database/transaction';
import { generateId } from '../ids/id';
import { MerchantEntity, Plan } from './merchant.entity';

/** The columns a merchant's update may change (its name, plan and own billing terms). */
export type MerchantColumnChanges = Partial<
  Pick<MerchantEntity, 'name' | 'plan' | 'max_file_size_bytes' | 'storage_bytes' | 'bandwidth_bytes' | 'overage_price_per_gib' | 'stripe_customer_id'>
>;

/** Merchants are the tenants themselves, so these queries are keyed by the merchant id. Reads take a Reader, writes a Transaction. */
@Injectable()
export class MerchantsRepository {
  async create(tx: Transaction, name: string, plan: Plan): Promise<MerchantEntity> {
    return tx.manager.save(MerchantEntity, tx.manager.create(MerchantEntity, { id: generateId('mer'), name, plan }));
  }

  findById(db: Reader, merchantId: string): Promise<MerchantEntity | null> {
    return db.manager.findOne(MerchantEntity, { where: { id: merchantId } });
  }

  async update(tx: Transaction, merchantId: string, changes: MerchantColumnChanges): Promise<MerchantEntity | null> {
    if (Object.keys(changes).length > 0) {
      await tx.manager.update(MerchantEntity, { id: merchantId }, changes);
    }
    return this.findById(tx, merchantId);
  }

  /** A page of merchants by id (the month's close walks them all), created before `createdBefore`. */
  listPage(db: Reader, afterId: string | null, limit: number, createdBefore: Date): Promise<MerchantEntity[]> {
    const query = db.manager
      .createQueryBuilder(MerchantEntity, 'merchant')
      .where('merchant.created_at < :createdBefore', { createdBefore })
      .orderBy('merchant.id', 'ASC')
      .limit(limit);
    if (afterId !== null) query.andWhere('merchant.id > :afterId', { afterId });
    return query.getMany();
  }

  findByIds(db: Reader, merchantIds: readonly string[]): Promise<MerchantEntity[]> {
    if (merchantIds.length === 0) return Promise.resolve([]);
    return db.manager.createQueryBuilder(MerchantEntity, 'merchant').where('merchant.id IN (:...merchantIds)', { merchantIds }).getMany();
  }

  count(db: Reader): Promise<number> {
    return db.manager.count(MerchantEntity);
  }
}
