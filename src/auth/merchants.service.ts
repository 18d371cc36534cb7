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
import { MerchantColumnChanges, MerchantsRepository } from './merchants.repository';
import { inTenant, RequestAudit } from './request-audit';

const PLAN_CACHE_ENTRIES = 10_000;

export function toMerchantResponse(merchant: MerchantEntity): MerchantResponseDto {
  return {
    id: merchant.id,
    name: merchant.name,
    plan: merchant.plan,
    limits: { max_file_size_bytes: merchant.max_file_size_bytes, storage_bytes: merchant.storage_bytes, bandwidth_bytes: merchant.bandwidth_bytes },
    overage_price_per_gib: merchant.overage_price_per_gib,
    stripe_customer_id: merchant.stripe_customer_id,
    created_at: merchant.created_at.toISOString(),
  };
}

/** A merchant's plan and its own terms (null: the plan's), as billing reads them (DESIGN §17). */
export interface MerchantTerms {
  plan: Plan;
  maxFileSizeBytes: number | null;
  storageBytes: number | null;
  bandwidthBytes: number | null;
  overagePricePerGib: number | null;
  stripeCustomerId: string | null;
}

export function termsOf(merchant: Pick<MerchantEntity, keyof MerchantColumnChanges>): MerchantTerms {
  return {
    plan: merchant.plan,
    maxFileSizeBytes: merchant.max_file_size_bytes,
    storageBytes: merchant.storage_bytes,
    bandwidthBytes: merchant.bandwidth_bytes,
    overagePricePerGib: merchant.overage_price_per_gib,
    stripeCustomerId: merchant.stripe_customer_id,
  };
}

/** A merchant's update: name, plan, and its own terms (null restores the plan's; absent: unchanged). */
export interface MerchantChanges {
  name?: string;
  plan?: Plan;
  limits?: { max_file_size_bytes?: number | null; storage_bytes?: number | null; bandwidth_bytes?: number | null };
  overage_price_per_gib?: number | null;
  stripe_customer_id?: string | null;
}

/** Only the fields the update names: absent stays, null restores the plan's. */
function columnChanges(changes: MerchantChanges): MerchantColumnChanges {
  const columns: MerchantColumnChanges = {};
  if (changes.name !== undefined) columns.name = changes.name;
  if (changes.plan !== undefined) columns.plan = changes.plan;
  for (const limit of ['max_file_size_bytes', 'storage_bytes', 'bandwidth_bytes'] as const) {
    if (changes.limits?.[limit] !== undefined) columns[limit] = changes.limits[limit];
  }
  if (changes.overage_price_per_gib !== undefined) columns.overage_price_per_gib = changes.overage_price_per_gib;
  if (changes.stripe_customer_id !== undefined) columns.stripe_customer_id = changes.stripe_customer_id;
  return columns;
}

/** Merchant administration, shared by the admin API and the CLI. */
@Injectable()
export class MerchantsService {
  /**
   * Plans and terms as recently read. Every download and upload asks for its merchant's; a change
   * reaches this instance at once (update forgets it) and the others within the API-key cache's
   * TTL, the same time a revoked key takes. Caps are enforced in SQL under the terms a request read.
   */
  private readonly terms = new LRUCache<string, MerchantTerms>({ max: PLAN_CACHE_ENTRIES, ttl: API_KEY_CACHE_TTL_MILLISECONDS });

  constructor(
    private readonly merchants: MerchantsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async create(name: string, plan: Plan, audit: RequestAudit): Promise<MerchantResponseDto> {
    // The new merchant's log starts with its creation.
    return toMerchantResponse(await this.unitOfWork.runRecorded((merchant: MerchantEntity) => inTenant(audit, merchant.id, null), (tx) => this.merchants.create(tx, name, plan)));
  }

  count(): Promise<number> {
    return this.merchants.count(this.unitOfWork.pool);
  }

  async get(merchantId: string): Promise<MerchantResponseDto> {
    return toMerchantResponse(await this.require(merchantId));
  }

  async update(merchantId: string, changes: MerchantChanges, audit: RequestAudit): Promise<MerchantResponseDto> {
    await this.require(merchantId);
    const updated = await this.unitOfWork.runRecorded(inTenant(audit, merchantId, null), (tx) => this.merchants.update(tx, merchantId, columnChanges(changes)));
    this.terms.delete(merchantId);
    if (!updated) throw this.notFound(merchantId);
    return toMerchantResponse(updated);
  }

  /** The merchant's plan (see `terms` for how fresh); free if the merchant is gone. */
  async planOf(db: Reader, merchantId: string): Promise<Plan> {
    return (await this.termsFor(db, merchantId)).plan;
  }

  /** The merchant's plan and own terms (see `terms` for how fresh); the free plan's if the merchant is gone. */
  async termsFor(db: Reader, merchantId: string): Promise<MerchantTerms> {
    const known = this.terms.get(merchantId);
    if (known !== undefined) return known;
    const merchant = await this.merchants.findById(db, merchantId);
    const terms: MerchantTerms = merchant
      ? termsOf(merchant)
      : { plan: 'free', maxFileSizeBytes: null, storageBytes: null, bandwidthBytes: null, overagePricePerGib: null, stripeCustomerId: null };
    this.terms.set(merchantId, terms);
    return terms;
  }

  /** A page of merchants by id, created before `createdBefore` (the month's close walks them all). */
  listPage(db: Reader, afterId: string | null, limit: number, createdBefore: Date): Promise<MerchantEntity[]> {
    return this.merchants.listPage(db, afterId, limit, createdBefore);
  }

  findByIds(db: Reader, merchantIds: readonly string[]): Promise<MerchantEntity[]> {
    return this.merchants.findByIds(db, merchantIds);
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
