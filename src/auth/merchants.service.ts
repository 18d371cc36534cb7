import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { UnitOfWork } from '../database/unit-of-work';
import type { Reader } from '../database/transaction';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isValidId } from '../ids/id';
import { MerchantResponseDto } from './dto/admin-response.dto';
import { MerchantEntity, Plan } from './merchant.entity';
import { API_KEY_CACHE_TTL_MILLISECONDS } from './api-key-cache';
import { MerchantsRepository } from './merchants.repository';

const PLAN_CACHE_ENTRIES = 10_000;

export function toMerchantResponse(merchant: MerchantEntity): MerchantResponseDto {
  return { id: merchant.id, name: merchant.name, plan: merchant.plan, created_at: merchant.created_at.toISOString() };
}

/** Merchant administration, shared by the admin API and the CLI. */
@Injectable()
export class MerchantsService {
  /**
   * Plans as recently read. Every download and upload asks for its merchant's plan; a plan change
   * reaches this instance at once (update forgets it) and the others within the API-key cache's
   * TTL, the same time a revoked key takes. Caps are enforced in SQL under the plan a request read.
   */
  private readonly plans = new LRUCache<string, Plan>({ max: PLAN_CACHE_ENTRIES, ttl: API_KEY_CACHE_TTL_MILLISECONDS });

  constructor(
    private readonly merchants: MerchantsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async create(name: string, plan: Plan): Promise<MerchantResponseDto> {
    return toMerchantResponse(await this.unitOfWork.run((tx) => this.merchants.create(tx, name, plan)));
  }

  count(): Promise<number> {
    return this.merchants.count(this.unitOfWork.pool);
  }

  async get(merchantId: string): Promise<MerchantResponseDto> {
    return toMerchantResponse(await this.require(merchantId));
  }

  async update(merchantId: string, changes: { name?: string; plan?: Plan }): Promise<MerchantResponseDto> {
    await this.require(merchantId);
    const updated = await this.unitOfWork.run((tx) => this.merchants.update(tx, merchantId, changes));
    this.plans.delete(merchantId);
    if (!updated) throw this.notFound(merchantId);
    return toMerchantResponse(updated);
  }

  /** The merchant's plan (see `plans` for how fresh); free if the merchant is gone. */
  async planOf(db: Reader, merchantId: string): Promise<Plan> {
    const known = this.plans.get(merchantId);
    if (known !== undefined) return known;
    const plan = (await this.merchants.findById(db, merchantId))?.plan ?? 'free';
    this.plans.set(merchantId, plan);
    return plan;
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
