import { Injectable } from '@nestjs/common';
import { Reader, UnitOfWork } from '../database/unit-of-work';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isValidId } from '../ids/id';
import { MerchantResponseDto } from './dto/admin-response.dto';
import { MerchantEntity, Plan } from './merchant.entity';
import { MerchantsRepository } from './merchants.repository';

export function toMerchantResponse(merchant: MerchantEntity): MerchantResponseDto {
  return { id: merchant.id, name: merchant.name, plan: merchant.plan, created_at: merchant.created_at.toISOString() };
}

/** Merchant administration, shared by the admin API and the CLI. */
@Injectable()
export class MerchantsService {
  constructor(
    private readonly merchants: MerchantsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async create(name: string, plan: Plan): Promise<MerchantResponseDto> {
    return toMerchantResponse(await this.merchants.create(name, plan));
  }

  async get(merchantId: string): Promise<MerchantResponseDto> {
    return toMerchantResponse(await this.require(merchantId));
  }

  async update(merchantId: string, changes: { name?: string; plan?: Plan }): Promise<MerchantResponseDto> {
    await this.require(merchantId);
    const updated = await this.merchants.update(merchantId, changes);
    if (!updated) throw this.notFound(merchantId);
    return toMerchantResponse(updated);
  }

  /** The merchant's plan (quotas read it inside their transaction); free if the merchant is gone. */
  async planOf(db: Reader, merchantId: string): Promise<Plan> {
    return (await this.merchants.findById(db, merchantId))?.plan ?? 'free';
  }

  async require(merchantId: string): Promise<MerchantEntity> {
    const merchant = isValidId('mer', merchantId) ? await this.merchants.findById(this.unitOfWork.pool, merchantId) : null;
    if (!merchant) throw this.notFound(merchantId);
    return merchant;
  }

  private notFound(merchantId: string): ApiError {
    return new ApiError(ErrorCode.MERCHANT_NOT_FOUND, `No merchant with id '${merchantId}'`);
  }
}
