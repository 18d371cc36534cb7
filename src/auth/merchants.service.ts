import { Injectable } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isValidId } from '../ids/id';
import { MerchantEntity, Plan } from './merchant.entity';
import { MerchantsRepository } from './merchants.repository';

export interface MerchantView {
  id: string;
  name: string;
  plan: Plan;
  created_at: string;
}

export function toMerchantView(merchant: MerchantEntity): MerchantView {
  return { id: merchant.id, name: merchant.name, plan: merchant.plan, created_at: merchant.created_at.toISOString() };
}

/** Merchant administration, shared by the admin API and the CLI. */
@Injectable()
export class MerchantsService {
  constructor(private readonly merchants: MerchantsRepository) {}

  async create(name: string, plan: Plan): Promise<MerchantView> {
    return toMerchantView(await this.merchants.create(name, plan));
  }

  async get(merchantId: string): Promise<MerchantView> {
    return toMerchantView(await this.require(merchantId));
  }

  async update(merchantId: string, changes: { name?: string; plan?: Plan }): Promise<MerchantView> {
    await this.require(merchantId);
    const updated = await this.merchants.update(merchantId, changes);
    if (!updated) throw this.notFound(merchantId);
    return toMerchantView(updated);
  }

  async require(merchantId: string): Promise<MerchantEntity> {
    const merchant = isValidId('mer', merchantId) ? await this.merchants.findById(merchantId) : null;
    if (!merchant) throw this.notFound(merchantId);
    return merchant;
  }

  private notFound(merchantId: string): ApiError {
    return new ApiError(ErrorCode.MERCHANT_NOT_FOUND, `No merchant with id '${merchantId}'`);
  }
}
