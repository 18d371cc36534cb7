import type { SearchHit } from '../database/search-hit';
import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import { CustomerRecordsService } from '../customer-records/customer-records.service';
import { TestClockTime } from '../test-clock-records/test-clock-time.service';
import { ProductsService } from '../products/products.service';
import type { Operation } from '../database/operation';
import { UnitOfWork } from '../database/unit-of-work';
import type { Reader } from '../database/transaction';
import { PageResult } from '../envelope/page-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isValidId } from '../ids/id';
import { Metrics } from '../observability/metrics';
import { PageRequest, toPageRequest, toPageResult } from '../pagination/page';
import { CreateEntitlementDto } from './dto/create-entitlement.dto';
import { EntitlementReasonDto, ReactivateEntitlementDto, RecordUsageDto } from './dto/entitlement-operation.dto';
import { CheckEntitlementQueryDto, ListEntitlementsQueryDto } from './dto/entitlement-query.dto';
import { EntitlementCheckResponseDto, EntitlementListItemDto, EntitlementResponseDto } from './dto/entitlement-response.dto';
import { UpdateEntitlementDto } from './dto/update-entitlement.dto';
import { Reference } from './entitlement-check.query';
import { EntitlementEntity, EntitlementStatus } from './entitlement.entity';
import { effectiveStatus } from './effective-status';
import { EntitlementCombinedGrantService } from './entitlement-combined-grant.service';
import { EntitlementGrantResolutionService, GrantInput } from './entitlement-grant-resolution.service';
import { EntitlementTransitionsService } from './entitlement-transitions.service';
import { toEntitlementCheckItem, toEntitlementListItem, toChangedEntitlementResponse, toEntitlementResponse } from './entitlement.mapper';
import { EntitlementsRepository } from './entitlements.repository';
import { EntitlementTokensService } from './tokens/entitlement-tokens.service';
import { exactlyOne, OneOf } from '../validation/exactly-one';

const LIST_FILTERS = ['customer_id', 'store_customer_id', 'product_id', 'status', 'source', 'granted_after', 'granted_before'] as const;

const parseNullableTime = (value: string | null | undefined): Date | null | undefined =>
  value === undefined ? undefined : value === null ? null : new Date(value);

/** A customer or product named by exactly one of its id and its store id. */
function referenceOf(named: OneOf<string>, idField: string): Reference {
  return named.field === idField ? { id: named.value } : { storeId: named.value };
}

/** A negative check; with include_token=true it says so with `token: null`. */
function notEntitled(withToken: boolean): EntitlementCheckResponseDto {
  return withToken ? { entitled: false, entitlement: null, token: null } : { entitled: false, entitlement: null };
}

/**
 * The entitlement routes: the access check and reads, and each write request in one transaction
 * (with its idempotency claim) running a rule of EntitlementGrantResolutionService or EntitlementTransitionsService. Also the reads the
 * customers module lists a customer's entitlements and downloads with.
 */
@Injectable()
export class EntitlementsService {
  constructor(
    private readonly entitlements: EntitlementsRepository,
    private readonly grantResolution: EntitlementGrantResolutionService,
    private readonly combinedGrants: EntitlementCombinedGrantService,
    private readonly transitions: EntitlementTransitionsService,
    private readonly customers: CustomerRecordsService,
    private readonly products: ProductsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly time: TestClockTime,
    private readonly tokens: EntitlementTokensService,
    private readonly metrics: Metrics,
  ) {}

  /** GET /v1/search's entitlements (search/search.service.ts), read where the caller says (the replica). */
  async search(db: Reader, tenant: Tenant, term: string, limit: number): Promise<SearchHit[]> {
    const hits = await this.entitlements.search(db, tenant, term, limit);
    if (hits.length === 0) return hits;
    // An entitlement is recognised by whose and of what: "store customer id · product name".
    const rows = await this.entitlements.findByIds(db, tenant, hits.map((hit) => hit.id));
    const [storeIds, productNames] = await Promise.all([
      this.customers.storeIdsOf(db, tenant, rows.map((row) => row.customer_id)),
      this.products.namesOf(db, tenant, rows.map((row) => row.product_id)),
    ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return hits.map((hit) => {
      const row = byId.get(hit.id);
      return row ? { ...hit, label: `${storeIds.get(row.customer_id) ?? row.customer_id} · ${productNames.get(row.product_id) ?? row.product_id}` } : hit;
    });
  }

  /** The effective status of the tenant's entitlement, or null when it has none (for the sources that link one). */
  async statusOf(db: Reader, tenant: Tenant, entitlementId: string): Promise<EntitlementStatus | null> {
    return (await this.statusesOf(db, tenant, [entitlementId])).get(entitlementId) ?? null;
  }

  /** The effective status of each of these entitlements of the tenant (absent: no such entitlement). */
  async statusesOf(db: Reader, tenant: Tenant, entitlementIds: string[]): Promise<Map<string, EntitlementStatus>> {
    const entitlements = await this.entitlements.findByIds(db, tenant, [...new Set(entitlementIds)]);
    const nowOf = await this.time.nowsFor(db, tenant, entitlements.map((entitlement) => entitlement.test_clock_id));
    return new Map(entitlements.map((entitlement) => [entitlement.id, effectiveStatus(entitlement, nowOf(entitlement.test_clock_id))]));
  }

  /**
   * What a license key shows of each of these entitlements (DESIGN §18): its effective status and
   * expiry at its customer's now, and that now (activations are timed by it).
   */
  async licenseViewsOf(db: Reader, tenant: Tenant, entitlementIds: string[]): Promise<Map<string, { status: EntitlementStatus; expiresAt: Date | null; now: Date }>> {
    const entitlements = await this.entitlements.findByIds(db, tenant, [...new Set(entitlementIds)]);
    const nowOf = await this.time.nowsFor(db, tenant, entitlements.map((entitlement) => entitlement.test_clock_id));
    return new Map(
      entitlements.map((entitlement) => {
        const now = nowOf(entitlement.test_clock_id);
        return [entitlement.id, { status: effectiveStatus(entitlement, now), expiresAt: entitlement.expires_at, now }];
      }),
    );
  }

  /**
   * Which of these customers already hold an active entitlement for which of these products
   * (imports skip them), as `customer_id/product_id` keys; read in the caller's transaction.
   */
  activePairs(db: Reader, tenant: Tenant, customerIds: string[], productIds: string[]): Promise<Set<string>> {
    return this.entitlements.activePairs(db, tenant, customerIds, productIds, this.time.realNow());
  }

  /** The hot path: one indexed query, no caching, so a revoke or suspend shows on the next request. */
  async check(tenant: Tenant, query: CheckEntitlementQueryDto): Promise<EntitlementCheckResponseDto> {
    const answer = await this.answerCheck(tenant, query);
    this.metrics.entitlementCheck(answer.entitled);
    return answer;
  }

  private async answerCheck(tenant: Tenant, query: CheckEntitlementQueryDto): Promise<EntitlementCheckResponseDto> {
    const customer = referenceOf(exactlyOne({ customer_id: query.customer_id, store_customer_id: query.store_customer_id }), 'customer_id');
    const product = referenceOf(exactlyOne({ product_id: query.product_id, store_product_id: query.store_product_id }), 'product_id');
    // A malformed id names nobody: not entitled, without a query.
    const withToken = query.include_token === 'true';
    if ((customer.id !== undefined && !isValidId('cus', customer.id)) || (product.id !== undefined && !isValidId('prod', product.id))) {
      return notEntitled(withToken);
    }
    // The real time; the statement reads a test clock's customer's now from the clock itself.
    const row = await this.entitlements.check(tenant, customer, product, this.time.realNow());
    if (!row) return notEntitled(withToken);
    if (!withToken) return { entitled: true, entitlement: toEntitlementCheckItem(row) };
    // A token takes a read and a signature: only when asked, so the plain check stays one statement.
    const issued = await this.tokens.issueForCheck(tenant, row.id);
    return issued ? { entitled: true, entitlement: toEntitlementCheckItem(row), token: issued.token } : notEntitled(true);
  }

  async list(tenant: Tenant, query: ListEntitlementsQueryDto): Promise<PageResult<EntitlementListItemDto>> {
    if (!LIST_FILTERS.some((name) => query[name] !== undefined)) {
      throw new ApiError(ErrorCode.FILTER_REQUIRED, `Pass at least one filter: ${LIST_FILTERS.join(', ')}`);
    }
    const page = toPageRequest(query);
    const now = this.time.realNow();
    const customerIds = query.customer_id !== undefined ? [query.customer_id] : [];
    // A store customer id filter is a prefix, as everywhere (an exact store id is its own prefix).
    const customerCondition = query.store_customer_id !== undefined ? this.customers.storeIdPrefixCondition(tenant, 'entitlement.customer_id', query.store_customer_id) : undefined;
    const { rows, total } = await this.entitlements.list(
      this.unitOfWork.replica,
      tenant,
      {
        customerIds,
        customerCondition,
        productId: query.product_id,
        status: query.status,
        source: query.source,
        grantedAfter: query.granted_after !== undefined ? new Date(query.granted_after) : undefined,
        grantedBefore: query.granted_before !== undefined ? new Date(query.granted_before) : undefined,
      },
      page,
      now,
    );
    const db = this.unitOfWork.replica;
    const [storeIds, productNames, nowOf] = await Promise.all([
      this.customers.storeIdsOf(db, tenant, rows.map((row) => row.customer_id)),
      this.products.namesOf(db, tenant, rows.map((row) => row.product_id)),
      this.time.nowsFor(db, tenant, rows.map((row) => row.test_clock_id)),
    ]);
    return toPageResult(
      rows,
      page,
      (row) => row.created_at,
      (row) => toEntitlementListItem(row, storeIds.get(row.customer_id) ?? '', productNames.get(row.product_id) ?? '', nowOf(row.test_clock_id)),
      total,
    );
  }

  async get(tenant: Tenant, entitlementId: string): Promise<EntitlementResponseDto> {
    const db = this.unitOfWork.pool;
    const entitlement = isValidId('ent', entitlementId) ? await this.entitlements.findById(db, tenant, entitlementId) : null;
    if (!entitlement) throw new ApiError(ErrorCode.ENTITLEMENT_NOT_FOUND, `No entitlement with id '${entitlementId}'`);
    const customer = await this.customers.require(db, tenant, entitlement.customer_id);
    return toEntitlementResponse(entitlement, customer.store_customer_id, await this.time.nowFor(db, tenant, entitlement.test_clock_id));
  }

  /**
   * POST /v1/entitlements: a grant with source api, or manual when a person made it in the
   * dashboard. The common grant takes two round trips (EntitlementCombinedGrantService); anything
   * else, and any race it lost, runs as the grant's transaction.
   */
  async create(operation: Operation, body: CreateEntitlementDto): Promise<EntitlementResponseDto> {
    const input: GrantInput = {
      customer: referenceOf(exactlyOne({ customer_id: body.customer_id, store_customer_id: body.store_customer_id }), 'customer_id'),
      testClockId: body.test_clock,
      product: referenceOf(exactlyOne({ product_id: body.product_id, store_product_id: body.store_product_id }), 'product_id'),
      source: operation.credential === 'dashboard-session' ? 'manual' : 'api',
      status: body.status,
      expiresAt: body.expires_at !== undefined ? new Date(body.expires_at) : undefined,
      usageLimit: body.usage_limit,
      storeOrderId: body.store_order_id,
      storeLineItemId: body.store_line_item_id,
      metadata: body.metadata,
    };
    const combined = await this.combinedGrants.grant(operation, input, toChangedEntitlementResponse);
    if (combined) return combined;
    return this.unitOfWork.run(operation, (tx) => this.grantResolution.grant(tx, operation.tenant, input).then(toChangedEntitlementResponse));
  }

  suspend(operation: Operation, entitlementId: string, body: EntitlementReasonDto): Promise<EntitlementResponseDto> {
    return this.unitOfWork.run(operation, (tx) => this.transitions.suspend(tx, operation.tenant, entitlementId, body.reason ?? null).then(toChangedEntitlementResponse));
  }

  revoke(operation: Operation, entitlementId: string, body: EntitlementReasonDto): Promise<EntitlementResponseDto> {
    return this.unitOfWork.run(operation, (tx) => this.transitions.revoke(tx, operation.tenant, entitlementId, body.reason ?? null).then(toChangedEntitlementResponse));
  }

  reactivate(operation: Operation, entitlementId: string, body: ReactivateEntitlementDto): Promise<EntitlementResponseDto> {
    const changes = { expiresAt: parseNullableTime(body.expires_at), usageLimit: body.usage_limit };
    return this.unitOfWork.run(operation, (tx) => this.transitions.reactivate(tx, operation.tenant, entitlementId, changes).then(toChangedEntitlementResponse));
  }

  activate(operation: Operation, entitlementId: string): Promise<EntitlementResponseDto> {
    return this.unitOfWork.run(operation, (tx) => this.transitions.activate(tx, operation.tenant, entitlementId).then(toChangedEntitlementResponse));
  }

  update(operation: Operation, entitlementId: string, body: UpdateEntitlementDto): Promise<EntitlementResponseDto> {
    const changes = { expiresAt: parseNullableTime(body.expires_at), usageLimit: body.usage_limit, metadata: body.metadata };
    return this.unitOfWork.run(operation, (tx) => this.transitions.update(tx, operation.tenant, entitlementId, changes).then(toChangedEntitlementResponse));
  }

  /** POST /usage: uses of a non-file product (downloads count theirs through recordUse too). */
  recordUsage(operation: Operation, entitlementId: string, body: RecordUsageDto): Promise<EntitlementResponseDto> {
    return this.unitOfWork.run(operation, (tx) => this.transitions.recordUse(tx, operation.tenant, entitlementId, body.quantity ?? 1).then(toChangedEntitlementResponse));
  }

  /** One page of a customer's entitlements, every status, with the total. */
  async pageForCustomer(
    tenant: Tenant,
    customer: { id: string; store_customer_id: string },
    page: PageRequest,
  ): Promise<PageResult<EntitlementListItemDto>> {
    const { rows, total } = await this.entitlements.list(this.unitOfWork.replica, tenant, { customerIds: [customer.id] }, page, this.time.realNow());
    const productNames = await this.products.namesOf(this.unitOfWork.replica, tenant, rows.map((row) => row.product_id));
    const nowOf = await this.time.nowsFor(this.unitOfWork.replica, tenant, rows.map((row) => row.test_clock_id));
    return toPageResult(rows, page, (row) => row.created_at, (row) => toEntitlementListItem(row, customer.store_customer_id, productNames.get(row.product_id) ?? '', nowOf(row.test_clock_id)), total);
  }

  /** Distinct products of the customer's entitlements active at `now`. */
  activeProductIds(db: Reader, tenant: Tenant, customerId: string, now: Date): Promise<string[]> {
    return this.entitlements.activeProductIds(db, tenant, customerId, now);
  }

  /** A keyset page (limit + 1 rows) of the customer's entitlements active at `now` for these products. */
  pageActive(db: Reader, tenant: Tenant, customerId: string, productIds: string[], now: Date, page: PageRequest): Promise<EntitlementEntity[]> {
    return this.entitlements.pageActive(db, tenant, customerId, productIds, now, page);
  }
}
