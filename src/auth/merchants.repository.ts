import { Injectable } from '@nestjs/common';
import type { Reader, Transaction } from '../database/transaction';
import { generateId } from '../ids/id';
import { MerchantEntity, Plan } from './merchant.entity';

/** Merchants are the tenants themselves, so these queries are keyed by the merchant id. Reads take a Reader, writes a Transaction. */
@Injectable()
export class MerchantsRepository {
  async create(tx: Transaction, name: string, plan: Plan): Promise<MerchantEntity> {
    return tx.manager.save(MerchantEntity, tx.manager.create(MerchantEntity, { id: generateId('mer'), name, plan }));
  }

  findById(db: Reader, merchantId: string): Promise<MerchantEntity | null> {
    return db.manager.findOne(MerchantEntity, { where: { id: merchantId } });
  }

  async update(tx: Transaction, merchantId: string, changes: Partial<Pick<MerchantEntity, 'name' | 'plan'>>): Promise<MerchantEntity | null> {
    if (Object.keys(changes).length > 0) {
      await tx.manager.update(MerchantEntity, { id: merchantId }, changes);
    }
    return this.findById(tx, merchantId);
  }

  count(db: Reader): Promise<number> {
    return db.manager.count(MerchantEntity);
  }
}
