import type { SearchHit } from '../database/search-hit';
import { Injectable } from '@nestjs/common';
import type { ReadPart, WritePart } from '../database/combined-statement';
import { isGrantable } from './product-lookup.sql';
import type { Tenant } from '../database/tenant';
import type { Operation } from '../database/operation';
import { isUniqueViolation } from '../database/unique-violation';
import { UnitOfWork } from '../database/unit-of-work';
import type { Reader, Transaction } from '../database/transaction';
import { PageResult } from '../envelope/page-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { generateId, isValidId } from '../ids/id';
import { toPageRequest, toPageResult } from '../pagination/page';
import { ListProductsQueryDto } from './dto/product-query.dto';
import { CreateProductDto, UpdateProductDto } from './dto/product-request.dto';
import { ProductListItemDto, ProductResponseDto } from './dto/product-response.dto';
import { FulfillmentConfig, FulfillmentWithFiles, ProductEntity } from './product.entity';
import { ProductBundleItemsRepository } from './product-bundle-items.repository';
import { ProductFilesRepository } from './product-files.repository';
import { toProductListItem, toProductResponse } from './product.mapper';
import { DEFAULT_FULFILLMENT_CONFIG, licenseConfigOf, normalizeFulfillmentConfig, resolveTypeFields } from './product-rules';
import { ProductChanges, ProductReference, ProductsRepository } from './products.repository';
import { FileCatalog } from './file-catalog';
import { sameJsonContent } from '../database/jsonb';

export type { ProductReference } from './products.repository';

const STORE_ID_INDEX = 'products_store_id_key';

/** A FILE-delivered product and its files in order: what a customer's downloads list shows. */
export interface FileDelivery {
  productId: string;
  name: string;
  fileIds: string[];
}

/**
 * Products and their file links (product_files). Requests' writes each run in one transaction;
 * the methods taking `tx` are for other modules, inside their transaction.
 */
@Injectable()
export class ProductsService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly links: ProductFilesRepository,
    private readonly bundleItems: ProductBundleItemsRepository,
    private readonly fileRecords: FileCatalog,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** GET /v1/search's products (search/search.service.ts), read where the caller says (the replica). */
  search(db: Reader, tenant: Tenant, term: string, limit: number): Promise<SearchHit[]> {
    return this.products.search(db, tenant, term, limit);
  }

  async list(tenant: Tenant, query: ListProductsQueryDto): Promise<PageResult<ProductListItemDto>> {
    const page = toPageRequest(query);
    const { rows, total } = await this.products.list(this.unitOfWork.replica, tenant, { search: query.search, status: query.status, ids: query.ids?.split(',') }, page);
    return toPageResult(rows, page, (row) => row.created_at, toProductListItem, total);
  }

  async get(tenant: Tenant, productId: string): Promise<ProductResponseDto> {
    const db = this.unitOfWork.pool;
    const product = isValidId('prod', productId) ? await this.products.findById(db, tenant, productId) : null;
    if (!product) throw notFound(productId);
    return this.response(db, tenant, product);
  }

  /** Creates a product (and its file links) and publishes product.created in the same transaction. */
  async create(operation: Operation, input: CreateProductDto): Promise<ProductResponseDto> {
    const { tenant } = operation;
    const typeFields = resolveTypeFields(input);
    const fulfillment = input.fulfillment_config ? normalizeFulfillmentConfig(input.fulfillment_config) : DEFAULT_FULFILLMENT_CONFIG;
    return this.withDuplicateStoreIdCheck(input.store_product_id, () =>
      this.unitOfWork.run(operation, async (tx) => {
        await this.requireOwnFiles(tx, tenant, fulfillment.file_ids);
        const includedProductIds = input.included_product_ids ?? [];
        await this.lockBundleGraph(tx, tenant, includedProductIds);
        await this.requireIncludable(tx, tenant, null, includedProductIds);
        const product = await this.products.insert(tx, tenant, {
          id: generateId('prod'),
          name: input.name,
          description: input.description ?? '',
          store_product_id: input.store_product_id ?? null,
          store_variant_ids: input.store_variant_ids ?? [],
          entitlement_type: input.entitlement_type,
          ...typeFields,
          metadata: input.metadata ?? {},
          fulfillment_config: storedConfig(fulfillment),
          status: 'active',
          license: licenseConfigOf(input.license),
        });
        await this.links.replace(tx, tenant, product.id, fulfillment.file_ids);
        await this.bundleItems.replace(tx, tenant, product.id, includedProductIds);
        const response = toProductResponse(product, fulfillment.file_ids, includedProductIds);
        await tx.publish('product.created', tenant, { ...response });
        return response;
      }),
    );
  }

  /**
   * Changes the fields sent (archived products too: fixing a name or metadata must stay possible).
   * The row is locked, so concurrent PATCHes apply one after the other; a PATCH that changes
   * nothing writes nothing and publishes nothing.
   */
  async update(operation: Operation, productId: string, input: UpdateProductDto): Promise<ProductResponseDto> {
    const { tenant } = operation;
    return this.withDuplicateStoreIdCheck(input.store_product_id, () =>
      this.unitOfWork.run(operation, async (tx) => {
        const current =
          input.included_product_ids === undefined
            ? await this.lockForChange(tx, tenant, productId)
            : await this.lockBundleGraph(tx, tenant, input.included_product_ids, productId);
        const entitlementType = input.entitlement_type ?? current.entitlement_type;
        const typeFields = resolveTypeFields({ ...input, entitlement_type: entitlementType }, current);
        const changes: ProductChanges = {
          ...pickDefined(input, ['name', 'description', 'store_product_id', 'store_variant_ids', 'metadata', 'status']),
          entitlement_type: entitlementType,
          ...typeFields,
        };
        if (input.license !== undefined) changes.license = licenseConfigOf(input.license);
        let fileIds: string[] | undefined;
        if (input.fulfillment_config) {
          const fulfillment = normalizeFulfillmentConfig(input.fulfillment_config);
          await this.requireOwnFiles(tx, tenant, fulfillment.file_ids);
          changes.fulfillment_config = storedConfig(fulfillment);
          fileIds = fulfillment.file_ids;
        }
        if (input.included_product_ids !== undefined) await this.requireIncludable(tx, tenant, current.id, input.included_product_ids);
        return this.applyChanges(tx, tenant, current, changes, { fileIds, includedProductIds: input.included_product_ids });
      }),
    );
  }

  /** DELETE archives: status archived, existing entitlements keep working, new grants get 409. Idempotent. */
  async archive(operation: Operation, productId: string): Promise<ProductResponseDto> {
    const { tenant } = operation;
    return this.unitOfWork.run(operation, async (tx) => {
      const current = await this.lockForChange(tx, tenant, productId);
      return this.applyChanges(tx, tenant, current, { status: 'archived' });
    });
  }

  /** The tenant's product, read through `db`; 404 PRODUCT_NOT_FOUND when there is none. */
  async require(db: Reader, tenant: Tenant, productId: string): Promise<ProductEntity> {
    const product = isValidId('prod', productId) ? await this.products.findById(db, tenant, productId) : null;
    if (!product) throw notFound(productId);
    return product;
  }

  /** The product a grant names (by id or store id), read in the grant's transaction; null when there is none. */
  async findForGrant(tx: Transaction, tenant: Tenant, product: ProductReference): Promise<ProductEntity | null> {
    const [found] = await this.findManyForGrant(tx, tenant, [product]);
    return found;
  }

  /**
   * findForGrant as a part of the grant's combined read, with the grantable products it includes
   * in the bundle's order (what `includedProductsForGrant` would give for it). `lock` inside the
   * grant's transaction: the named product stays as read until the grant commits (an archive waits).
   */
  forGrantPart(tenant: Tenant, product: ProductReference, lock: boolean): ReadPart<{ product: ProductEntity; included: ProductEntity[] } | null> {
    const id = product.id !== undefined && isValidId('prod', product.id) ? product.id : null;
    return this.products.forGrantPart(tenant, id, product.storeId ?? null, lock);
  }

  /** A combined write's part that keeps the product grantable until the write commits, refused (`refusal`) when it no longer is. */
  grantableLockPart(tenant: Tenant, productId: string, refusal: string): WritePart {
    return this.products.grantableLockPart(tenant, productId, refusal);
  }

  /** findForGrant of many references in one statement: each reference's product, or null (also for a null reference), in order. */
  async findManyForGrant(tx: Transaction, tenant: Tenant, references: ReadonlyArray<ProductReference | null>): Promise<Array<ProductEntity | null>> {
    const ids = references.flatMap((reference) => (reference?.id !== undefined && isValidId('prod', reference.id) ? [reference.id] : []));
    const storeIds = references.flatMap((reference) => (reference?.storeId !== undefined ? [reference.storeId] : []));
    const products = await this.products.findByIdsOrStoreIds(tx, tenant, ids, storeIds);
    const byId = new Map(products.map((product) => [product.id, product]));
    const byStoreId = new Map(products.map((product) => [product.store_product_id, product]));
    return references.map((reference) =>
      reference === null ? null : reference.id !== undefined ? (byId.get(reference.id) ?? null) : (byStoreId.get(reference.storeId) ?? null),
    );
  }

  /** The product a store variant id names (subscriptions, orders); null when none lists it. */
  findByStoreVariantId(db: Reader, tenant: Tenant, storeVariantId: string): Promise<ProductEntity | null> {
    return this.products.findByStoreVariantId(db, tenant, storeVariantId);
  }

  /**
   * Locks the product a file is about to be linked to (upload-url), so concurrent links append in
   * turn; 404 PRODUCT_NOT_FOUND naming `product_id` when the tenant has no such product, 400 when it
   * doesn't deliver by FILE.
   */
  async lockForLinking(tx: Transaction, tenant: Tenant, productId: string): Promise<void> {
    const product = isValidId('prod', productId) ? await this.products.lockById(tx, tenant, productId) : null;
    if (!product) throw new ApiError(ErrorCode.PRODUCT_NOT_FOUND, `No product with id '${productId}'`, 'product_id');
    const method = product.fulfillment_config.delivery_method;
    if (method !== 'FILE') {
      throw new ApiError(
        ErrorCode.INVALID_PARAMETER,
        `Product '${productId}' delivers by ${method}, not FILE: files can only be linked to FILE products`,
        'product_id',
      );
    }
  }

  /** Appends the file to the product's files (locked by lockForLinking) and publishes product.updated. */
  async linkFile(tx: Transaction, tenant: Tenant, productId: string, fileId: string): Promise<void> {
    await this.links.append(tx, tenant, productId, fileId);
    const product = await this.products.touch(tx, tenant, productId);
    await tx.publish('product.updated', tenant, { ...(await this.response(tx, tenant, product)) });
  }

  /**
   * For each of these products, the products it includes (none when it is no bundle), in the
   * bundle's order, archived ones left out (they can't be granted; the others still are). Two
   * statements whatever the number of products: an order or an import batch grants many at once.
   */
  async includedProductsForGrant(tx: Transaction, tenant: Tenant, bundleProductIds: string[]): Promise<Map<string, ProductEntity[]>> {
    const includedIds = await this.bundleItems.includedIdsOfMany(tx, tenant, bundleProductIds);
    const byId = new Map((await this.products.findByIds(tx, tenant, [...new Set([...includedIds.values()].flat())])).map((product) => [product.id, product]));
    return new Map(
      bundleProductIds.map((bundleProductId) => [
        bundleProductId,
        (includedIds.get(bundleProductId) ?? []).flatMap((productId) => {
          const product = byId.get(productId);
          return product && isGrantable(product) ? [product] : [];
        }),
      ]),
    );
  }

  /** Whether the product delivers this file. */
  /** The products linked to the file, as a part of a combined read (a download's check 3). */
  productIdsOfFilePart(tenant: Tenant, fileId: string): ReadPart<string[]> {
    return this.links.productIdsOfFilePart(tenant, fileId);
  }

  hasFile(tx: Transaction, tenant: Tenant, productId: string, fileId: string): Promise<boolean> {
    return this.links.has(tx, tenant, productId, fileId);
  }

  /** A file's `product_id`: the product of its oldest link (null when it has none), for each linked file. */
  firstProductOfFiles(db: Reader, tenant: Tenant, fileIds: string[]): Promise<Map<string, string>> {
    return this.links.firstProductOfFiles(db, tenant, fileIds);
  }

  /** The name of each of these products of the tenant (lists name their products in one read per page). */
  async namesOf(db: Reader, tenant: Tenant, productIds: string[]): Promise<Map<string, string>> {
    const products = await this.products.findByIds(db, tenant, [...new Set(productIds)]);
    return new Map(products.map((product) => [product.id, product.name]));
  }

  /** The ids of the products the file is linked to, in id order (a PENDING file's are unlinked when it is deleted). */
  productIdsOfFile(db: Reader, tenant: Tenant, fileId: string): Promise<string[]> {
    return this.links.productIdsOfFile(db, tenant, fileId);
  }

  /**
   * Locks the file's products (in id order, before the file's own row: the order upload-url takes
   * them in) and unlinks the file from each, publishing product.updated for each.
   */
  async unlinkFile(tx: Transaction, tenant: Tenant, fileId: string, productIds: string[]): Promise<void> {
    for (const productId of [...productIds].sort()) {
      const product = await this.products.lockById(tx, tenant, productId);
      if (!product) continue;
      const remaining = (await this.links.fileIdsOf(tx, tenant, productId)).filter((id) => id !== fileId);
      await this.links.replace(tx, tenant, productId, remaining);
      const touched = await this.products.touch(tx, tenant, productId);
      await tx.publish('product.updated', tenant, { ...(await this.response(tx, tenant, touched)) });
    }
  }

  /** The ids of the files linked to the product (none for an unknown product). */
  fileIdsOf(db: Reader, tenant: Tenant, productId: string): Promise<string[]> {
    return this.links.fileIdsOf(db, tenant, productId);
  }

  /** Of these products, those delivered by FILE, with their file ids in order. */
  async fileDeliveries(db: Reader, tenant: Tenant, productIds: string[]): Promise<FileDelivery[]> {
    const products = (await this.products.findByIds(db, tenant, productIds)).filter((product) => product.fulfillment_config.delivery_method === 'FILE');
    const fileIds = await this.links.fileIdsOfProducts(db, tenant, products.map((product) => product.id));
    return products.map((product) => ({ productId: product.id, name: product.name, fileIds: fileIds.get(product.id) ?? [] }));
  }

  private async response(db: Reader, tenant: Tenant, product: ProductEntity): Promise<ProductResponseDto> {
    return toProductResponse(product, await this.links.fileIdsOf(db, tenant, product.id), await this.bundleItems.includedIdsOf(db, tenant, product.id));
  }

  private async applyChanges(
    tx: Transaction,
    tenant: Tenant,
    current: ProductEntity,
    changes: ProductChanges,
    rows: { fileIds?: string[]; includedProductIds?: string[] } = {},
  ): Promise<ProductResponseDto> {
    const currentFileIds = await this.links.fileIdsOf(tx, tenant, current.id);
    const currentIncludedIds = await this.bundleItems.includedIdsOf(tx, tenant, current.id);
    const changed = Object.fromEntries(
      Object.entries(changes).filter(([field, value]) => !sameJsonContent(current[field as keyof ProductEntity], value)),
    ) as ProductChanges;
    const { fileIds, includedProductIds } = rows;
    const linksChanged = fileIds !== undefined && !sameJsonContent(currentFileIds, fileIds);
    const itemsChanged = includedProductIds !== undefined && !sameJsonContent(currentIncludedIds, includedProductIds);
    if (Object.keys(changed).length === 0 && !linksChanged && !itemsChanged) return toProductResponse(current, currentFileIds, currentIncludedIds);
    if (linksChanged) await this.links.replace(tx, tenant, current.id, fileIds);
    if (itemsChanged) await this.bundleItems.replace(tx, tenant, current.id, includedProductIds);
    const product = Object.keys(changed).length > 0 ? await this.products.update(tx, tenant, current.id, changed) : await this.products.touch(tx, tenant, current.id);
    const response = toProductResponse(product, linksChanged ? fileIds : currentFileIds, itemsChanged ? includedProductIds : currentIncludedIds);
    await tx.publish('product.updated', tenant, { ...response });
    return response;
  }

  /**
   * A change of bundle contents locks every product it touches (the bundle and what it would
   * include) in id order, before the rules are checked (DESIGN §13). The no-nesting and no-cycle
   * rules each relate a bundle to a product it includes, so two changes that together would break
   * one both lock that product: the second waits, then sees the first's rows and is refused.
   */
  private async lockBundleGraph(tx: Transaction, tenant: Tenant, includedIds: string[], bundleProductId: string): Promise<ProductEntity>;
  private async lockBundleGraph(tx: Transaction, tenant: Tenant, includedIds: string[]): Promise<null>;
  private async lockBundleGraph(tx: Transaction, tenant: Tenant, includedIds: string[], bundleProductId?: string): Promise<ProductEntity | null> {
    const bundleId = bundleProductId !== undefined && isValidId('prod', bundleProductId) ? [bundleProductId] : [];
    const locked = await this.products.lockByIds(tx, tenant, [...bundleId, ...includedIds.filter((productId) => isValidId('prod', productId))]);
    if (bundleProductId === undefined) return null;
    const bundle = locked.find((product) => product.id === bundleProductId);
    if (!bundle) throw notFound(bundleProductId);
    return bundle;
  }

  private async lockForChange(tx: Transaction, tenant: Tenant, productId: string): Promise<ProductEntity> {
    const product = isValidId('prod', productId) ? await this.products.lockById(tx, tenant, productId) : null;
    if (!product) throw notFound(productId);
    return product;
  }

  /** FILE delivery may only name files of this merchant and mode (others' ids look unknown). */
  private async requireOwnFiles(tx: Transaction, tenant: Tenant, fileIds: string[]): Promise<void> {
    if (fileIds.length === 0) return;
    const found = new Set(await this.fileRecords.existingIds(tx, tenant, fileIds));
    const unknown = fileIds.filter((fileId) => !found.has(fileId));
    if (unknown.length > 0) {
      throw new ApiError(
        ErrorCode.INVALID_PARAMETER,
        `Invalid 'fulfillment_config.file_ids': no file with id ${unknown.map((fileId) => `'${fileId}'`).join(', ')}`,
        'fulfillment_config.file_ids',
      );
    }
  }

  /**
   * DESIGN §10: a bundle includes other products of this tenant that are active and not bundles,
   * never itself; and a product that some bundle includes can't become a bundle (no nesting).
   */
  private async requireIncludable(tx: Transaction, tenant: Tenant, bundleProductId: string | null, productIds: string[]): Promise<void> {
    if (productIds.length === 0) return;
    const refuse = (message: string) => new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid 'included_product_ids': ${message}`, 'included_product_ids');
    if (bundleProductId !== null && productIds.includes(bundleProductId)) throw refuse('a product cannot include itself');
    if (bundleProductId !== null && (await this.bundleItems.isIncluded(tx, tenant, bundleProductId))) {
      throw refuse(`product '${bundleProductId}' is included in a bundle, so it cannot be a bundle itself`);
    }
    const found = new Map((await this.products.findByIds(tx, tenant, productIds.filter((productId) => isValidId('prod', productId)))).map((product) => [product.id, product]));
    const unknown = productIds.filter((productId) => !found.has(productId));
    if (unknown.length > 0) throw refuse(`no product with id ${unknown.map((productId) => `'${productId}'`).join(', ')}`);
    const archived = productIds.filter((productId) => found.get(productId)?.status === 'archived');
    if (archived.length > 0) throw refuse(`archived products cannot be included: ${archived.map((productId) => `'${productId}'`).join(', ')}`);
    const bundles = [...(await this.bundleItems.bundlesAmong(tx, tenant, productIds))];
    if (bundles.length > 0) throw refuse(`bundles cannot be included in a bundle: ${bundles.map((productId) => `'${productId}'`).join(', ')}`);
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

/** The stored config: the file ids live in product_files. */
function storedConfig(fulfillment: FulfillmentWithFiles): FulfillmentConfig {
  return { delivery_method: fulfillment.delivery_method, access_url: fulfillment.access_url, access_instructions: fulfillment.access_instructions };
}

function pickDefined<T extends object, K extends keyof T>(source: T, fields: K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(fields.filter((field) => source[field] !== undefined).map((field) => [field, source[field]])) as Partial<Pick<T, K>>;
}
