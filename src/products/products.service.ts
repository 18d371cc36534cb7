import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { isUniqueViolation } from '../database/unique-violation';
import { Transaction, UnitOfWork } from '../database/unit-of-work';
import { PageResult } from '../envelope/page-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { generateId, isValidId } from '../ids/id';
import { toPageRequest, toPageResult } from '../pagination/page';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { CreateProductDto, UpdateProductDto } from './dto/product-request.dto';
import { ProductListItemDto, ProductResponseDto } from './dto/product-response.dto';
import { FulfillmentConfig, ProductEntity } from './product.entity';
import { toProductListItem, toProductResponse } from './product.mapper';
import { DEFAULT_FULFILLMENT_CONFIG, normalizeFulfillmentConfig, resolveTypeFields } from './product-rules';
import { ProductChanges, ProductsRepository } from './products.repository';

const STORE_ID_INDEX = 'products_store_id_key';

@Injectable()
export class ProductsService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async list(tenant: Tenant, query: PaginationQueryDto): Promise<PageResult<ProductListItemDto>> {
    const page = toPageRequest(query);
    const { rows, total } = await this.products.list(tenant, page);
    return toPageResult(rows, page, (row) => row.created_at, toProductListItem, total);
  }

  async get(tenant: Tenant, productId: string): Promise<ProductResponseDto> {
    return toProductResponse(await this.require(tenant, productId));
  }

  /** The product of this tenant, or 404 PRODUCT_NOT_FOUND (also for malformed ids and other tenants' ids). */
  async require(tenant: Tenant, productId: string): Promise<ProductEntity> {
    const product = isValidId('prod', productId) ? await this.products.findById(tenant, productId) : null;
    if (!product) throw notFound(productId);
    return product;
  }

  /** Creates a product and publishes product.created in the same transaction. */
  async create(tenant: Tenant, input: CreateProductDto): Promise<ProductResponseDto> {
    const typeFields = resolveTypeFields(input);
    const fulfillment = input.fulfillment_config ? normalizeFulfillmentConfig(input.fulfillment_config) : DEFAULT_FULFILLMENT_CONFIG;
    return this.withDuplicateStoreIdCheck(input.store_product_id, () =>
      this.unitOfWork.run(async ({ manager, publish }) => {
        await this.requireOwnFiles(manager, tenant, fulfillment);
        const product = await this.products.insert(manager, tenant, {
          id: generateId('prod'),
          name: input.name,
          description: input.description ?? '',
          store_product_id: input.store_product_id ?? null,
          store_variant_ids: input.store_variant_ids ?? [],
          entitlement_type: input.entitlement_type,
          ...typeFields,
          metadata: input.metadata ?? {},
          fulfillment_config: fulfillment,
          status: 'active',
        });
        const response = toProductResponse(product);
        await publish('product.created', tenant, { ...response });
        return response;
      }),
    );
  }

  /**
   * Changes the fields sent (archived products too: fixing a name or metadata must stay possible).
   * The row is locked, so concurrent PATCHes apply one after the other; a PATCH that changes
   * nothing writes nothing and publishes nothing.
   */
  async update(tenant: Tenant, productId: string, input: UpdateProductDto): Promise<ProductResponseDto> {
    return this.withDuplicateStoreIdCheck(input.store_product_id, () =>
      this.unitOfWork.run(async (transaction) => {
        const current = await this.lockForChange(transaction.manager, tenant, productId);
        const entitlementType = input.entitlement_type ?? current.entitlement_type;
        const typeFields = resolveTypeFields({ ...input, entitlement_type: entitlementType }, current);
        const changes: ProductChanges = {
          ...pickDefined(input, ['name', 'description', 'store_product_id', 'store_variant_ids', 'metadata', 'status']),
          entitlement_type: entitlementType,
          ...typeFields,
        };
        if (input.fulfillment_config) {
          changes.fulfillment_config = normalizeFulfillmentConfig(input.fulfillment_config);
          await this.requireOwnFiles(transaction.manager, tenant, changes.fulfillment_config);
        }
        return this.applyChanges(transaction, tenant, current, changes);
      }),
    );
  }

  /** DELETE archives: status archived, existing entitlements keep working, new grants get 409. Idempotent. */
  async archive(tenant: Tenant, productId: string): Promise<ProductResponseDto> {
    return this.unitOfWork.run(async (transaction) => {
      const current = await this.lockForChange(transaction.manager, tenant, productId);
      return this.applyChanges(transaction, tenant, current, { status: 'archived' });
    });
  }

  private async applyChanges(
    { manager, publish }: Transaction,
    tenant: Tenant,
    current: ProductEntity,
    changes: ProductChanges,
  ): Promise<ProductResponseDto> {
    const changed = Object.fromEntries(
      Object.entries(changes).filter(([field, value]) => !sameValue(current[field as keyof ProductEntity], value)),
    ) as ProductChanges;
    if (Object.keys(changed).length === 0) return toProductResponse(current);
    const response = toProductResponse(await this.products.update(manager, tenant, current.id, changed));
    await publish('product.updated', tenant, { ...response });
    return response;
  }

  private async lockForChange(manager: EntityManager, tenant: Tenant, productId: string): Promise<ProductEntity> {
    const product = isValidId('prod', productId) ? await this.products.findByIdForUpdate(manager, tenant, productId) : null;
    if (!product) throw notFound(productId);
    return product;
  }

  /** FILE delivery may only name files of this merchant and mode (others' ids look unknown). */
  private async requireOwnFiles(manager: EntityManager, tenant: Tenant, config: FulfillmentConfig): Promise<void> {
    if (config.file_ids.length === 0) return;
    const found = new Set(await this.products.findExistingFileIds(manager, tenant, config.file_ids));
    const unknown = config.file_ids.filter((fileId) => !found.has(fileId));
    if (unknown.length > 0) {
      throw new ApiError(
        ErrorCode.INVALID_PARAMETER,
        `Invalid 'fulfillment_config.file_ids': no file with id ${unknown.map((fileId) => `'${fileId}'`).join(', ')}`,
        'fulfillment_config.file_ids',
      );
    }
  }

  /** The unique index decides, so two concurrent creates with one store id cannot both succeed. */
  private async withDuplicateStoreIdCheck<T>(storeProductId: string | null | undefined, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error, STORE_ID_INDEX)) {
        throw new ApiError(
          ErrorCode.DUPLICATE_STORE_ID,
          `Another product already has store_product_id '${storeProductId}' (in this mode)`,
          'store_product_id',
        );
      }
      throw error;
    }
  }
}

function notFound(productId: string): ApiError {
  return new ApiError(ErrorCode.PRODUCT_NOT_FOUND, `No product with id '${productId}'`);
}

function pickDefined<T extends object, K extends keyof T>(source: T, fields: K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(fields.filter((field) => source[field] !== undefined).map((field) => [field, source[field]])) as Partial<Pick<T, K>>;
}

/** Column values are JSON-shaped (strings, numbers, arrays, objects), so JSON equality is exact enough. */
function sameValue(left: unknown, right: unknown): boolean {
  return JSON.stringify(left ?? null) === JSON.stringify(right ?? null);
}
