import { Injectable } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { Clock } from '../clock/clock';
import { CustomersService } from '../customers/customers.service';
import { UnitOfWork } from '../database/unit-of-work';
import { PageResult } from '../envelope/page-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { generateId, isValidId } from '../ids/id';
import { toPageRequest, toPageResult } from '../pagination/page';
import { CreateEntitlementDto } from './dto/create-entitlement.dto';
import { CheckEntitlementQueryDto, ListEntitlementsQueryDto } from './dto/entitlement-query.dto';
import { EntitlementCheckResponseDto, EntitlementListItemDto, EntitlementResponseDto } from './dto/entitlement-response.dto';
import { Reference } from './entitlement-check.query';
import { EntitlementEntity } from './entitlement.entity';
import { toEntitlementCheckItem, toEntitlementListItem, toEntitlementResponse } from './entitlement.mapper';
import { EntitlementsRepository } from './entitlements.repository';

const DAY_MILLISECONDS = 24 * 60 * 60 * 1000;
const LIST_FILTERS = ['customer_id', 'store_customer_id', 'product_id', 'status', 'source', 'granted_after', 'granted_before'] as const;

/** Present means a non-empty value: `?customer_id=` counts as absent. */
const present = (value: string | undefined): value is string => value !== undefined && value !== '';

/**
 * Exactly one of an id pair. `bothCode` differs: the check's contract (DESIGN §5) makes both a
 * MISSING_REQUIRED_FIELD; on create a second id is an invalid extra field.
 */
function pickReference(id: string | undefined, storeId: string | undefined, names: [string, string], bothCode: ErrorCode): Reference {
  if (present(id) && present(storeId)) {
    throw new ApiError(bothCode, `Pass exactly one of '${names[0]}' and '${names[1]}', not both`, names[1]);
  }
  if (present(id)) return { id };
  if (present(storeId)) return { storeId };
  throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, `Pass one of '${names[0]}' or '${names[1]}'`, names[0]);
}

/** Reads, the access check and grants. Lifecycle operations are in EntitlementLifecycleService. */
@Injectable()
export class EntitlementsService {
  constructor(
    private readonly entitlements: EntitlementsRepository,
    private readonly customers: CustomersService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** The hot path: one indexed query, no caching, so a revoke or suspend shows on the next request. */
  async check(tenant: Tenant, query: CheckEntitlementQueryDto): Promise<EntitlementCheckResponseDto> {
    const customer = pickReference(query.customer_id, query.store_customer_id, ['customer_id', 'store_customer_id'], ErrorCode.MISSING_REQUIRED_FIELD);
    const product = pickReference(query.product_id, query.store_product_id, ['product_id', 'store_product_id'], ErrorCode.MISSING_REQUIRED_FIELD);
    // A malformed id names nobody: not entitled, without a query.
    if ((customer.id !== undefined && !isValidId('cus', customer.id)) || (product.id !== undefined && !isValidId('prod', product.id))) {
      return { entitled: false, entitlement: null };
    }
    const row = await this.entitlements.check(tenant, customer, product, this.clock.now());
    return row ? { entitled: true, entitlement: toEntitlementCheckItem(row) } : { entitled: false, entitlement: null };
  }

  async list(tenant: Tenant, query: ListEntitlementsQueryDto): Promise<PageResult<EntitlementListItemDto>> {
    if (!LIST_FILTERS.some((name) => query[name] !== undefined)) {
      throw new ApiError(ErrorCode.FILTER_REQUIRED, `Pass at least one filter: ${LIST_FILTERS.join(', ')}`);
    }
    const page = toPageRequest(query);
    const now = this.clock.now();
    const { rows, total } = await this.entitlements.list(
      tenant,
      {
        customerId: query.customer_id,
        storeCustomerId: query.store_customer_id,
        productId: query.product_id,
        status: query.status,
        source: query.source,
        grantedAfter: query.granted_after !== undefined ? new Date(query.granted_after) : undefined,
        grantedBefore: query.granted_before !== undefined ? new Date(query.granted_before) : undefined,
      },
      page,
      now,
    );
    return toPageResult(rows, page, (row) => row.created_at, (row) => toEntitlementListItem(row, now), total);
  }

  async get(tenant: Tenant, entitlementId: string): Promise<EntitlementResponseDto> {
    const entitlement = isValidId('ent', entitlementId) ? await this.entitlements.findById(tenant, entitlementId) : null;
    if (!entitlement) throw new ApiError(ErrorCode.ENTITLEMENT_NOT_FOUND, `No entitlement with id '${entitlementId}'`);
    return toEntitlementResponse(entitlement, this.clock.now());
  }

  /** Grants a product (source api); publishes entitlement.created in the same transaction. */
  async create(tenant: Tenant, body: CreateEntitlementDto): Promise<EntitlementResponseDto> {
    const customerReference = pickReference(body.customer_id, body.store_customer_id, ['customer_id', 'store_customer_id'], ErrorCode.INVALID_PARAMETER);
    const productReference = pickReference(body.product_id, body.store_product_id, ['product_id', 'store_product_id'], ErrorCode.INVALID_PARAMETER);
    const now = this.clock.now();
    const explicitExpiry = body.expires_at !== undefined ? new Date(body.expires_at) : null;
    if (explicitExpiry && explicitExpiry.getTime() <= now.getTime()) {
      throw new ApiError(ErrorCode.INVALID_PARAMETER, `'expires_at' must be in the future`, 'expires_at');
    }
    return this.unitOfWork.run(async ({ manager, publish }) => {
      const customer =
        customerReference.id !== undefined
          ? await this.customers.require(tenant, customerReference.id, manager)
          : await this.customers.findOrCreateByStoreId(manager, tenant, customerReference.storeId);
      const product =
        productReference.id !== undefined && !isValidId('prod', productReference.id)
          ? null
          : await this.entitlements.findProduct(manager, tenant, productReference);
      if (!product) {
        const named = productReference.id !== undefined ? `id '${productReference.id}'` : `store_product_id '${productReference.storeId}'`;
        throw new ApiError(ErrorCode.PRODUCT_NOT_FOUND, `No product with ${named}`, productReference.id !== undefined ? 'product_id' : 'store_product_id');
      }
      if (product.status === 'archived') {
        throw new ApiError(ErrorCode.PRODUCT_ARCHIVED, `Product '${product.id}' is archived and cannot be granted`);
      }
      const defaultExpiry =
        product.entitlement_type === 'time_limited' && product.access_duration_days !== null
          ? new Date(now.getTime() + product.access_duration_days * DAY_MILLISECONDS)
          : null;
      const defaultUsageLimit = product.entitlement_type === 'usage_limited' ? product.usage_limit : null;
      const entitlement = manager.create(EntitlementEntity, {
        id: generateId('ent'),
        merchant_id: tenant.merchantId,
        mode: tenant.mode,
        customer_id: customer.id,
        product_id: product.id,
        status: body.status ?? 'active',
        granted_at: now,
        expires_at: explicitExpiry ?? defaultExpiry,
        usage_count: 0,
        usage_limit: body.usage_limit ?? defaultUsageLimit,
        source: 'api',
        store_order_id: body.store_order_id ?? null,
        store_line_item_id: body.store_line_item_id ?? null,
        parent_entitlement_id: null,
        metadata: body.metadata ?? {},
      });
      const saved = await this.entitlements.insert(manager, entitlement);
      saved.customer = customer;
      const response = toEntitlementResponse(saved as EntitlementEntity & { customer: typeof customer }, now);
      await publish('entitlement.created', tenant, { ...response });
      return response;
    });
  }
}
