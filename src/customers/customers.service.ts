import { Injectable } from '@nestjs/common';
import type { Tenant } from '../database/tenant';
import { Clock } from '../clock/clock';
import { UnitOfWork } from '../database/unit-of-work';
import { EntitlementsService } from '../entitlements/entitlements.service';
import { PageResult } from '../envelope/page-result';
import { FileRecordsService } from '../files/file-records.service';
import { toPageRequest, toPageResult } from '../pagination/page';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { ProductsService } from '../products/products.service';
import { CustomerEntity } from '../customer-records/customer.entity';
import { CustomerRecordsService } from '../customer-records/customer-records.service';
import { CustomerDownloadGroupDto } from './dto/customer-download.dto';
import { ListCustomersQueryDto } from './dto/customer-query.dto';
import { CustomerResponseDto } from './dto/customer-response.dto';
import { CustomerEntitlementListItemDto } from './dto/customer-entitlement-list-item.dto';

/**
 * The customer routes: a customer's entitlements and downloadable files, composed from the
 * entitlements, products and files modules' reads (each table read by its owner).
 */
@Injectable()
export class CustomersService {
  constructor(
    private readonly records: CustomerRecordsService,
    private readonly entitlements: EntitlementsService,
    private readonly products: ProductsService,
    private readonly files: FileRecordsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** GET /v1/customers: newest first, searched by exact id or store id prefix, with the total. */
  async list(tenant: Tenant, query: ListCustomersQueryDto): Promise<PageResult<CustomerResponseDto>> {
    const page = toPageRequest(query);
    const { rows, total } = await this.records.list(
      this.unitOfWork.replica,
      tenant,
      {
        search: query.search,
        createdAfter: query.created_after !== undefined ? new Date(query.created_after) : undefined,
        createdBefore: query.created_before !== undefined ? new Date(query.created_before) : undefined,
      },
      page,
    );
    return toPageResult(rows, page, (row) => row.created_at, toCustomerResponse, total);
  }

  /** GET /v1/customers/{id}: 404 CUSTOMER_NOT_FOUND for unknown, malformed and other tenants' ids. */
  async get(tenant: Tenant, customerId: string): Promise<CustomerResponseDto> {
    return toCustomerResponse(await this.records.require(this.unitOfWork.pool, tenant, customerId));
  }

  /** GET /v1/customers/store/{store_customer_id}. */
  async getByStoreId(tenant: Tenant, storeCustomerId: string): Promise<CustomerResponseDto> {
    return toCustomerResponse(await this.records.requireByStoreId(this.unitOfWork.pool, tenant, storeCustomerId));
  }

  /** GET /v1/customers/{id}/entitlements: every status, 404 for an unknown customer. */
  async listEntitlementsById(tenant: Tenant, customerId: string, query: PaginationQueryDto): Promise<PageResult<CustomerEntitlementListItemDto>> {
    return this.listEntitlements(tenant, await this.records.require(this.unitOfWork.pool, tenant, customerId), query);
  }

  /** GET /v1/customers/store/{store_customer_id}/entitlements. */
  async listEntitlementsByStoreId(
    tenant: Tenant,
    storeCustomerId: string,
    query: PaginationQueryDto,
  ): Promise<PageResult<CustomerEntitlementListItemDto>> {
    return this.listEntitlements(tenant, await this.records.requireByStoreId(this.unitOfWork.pool, tenant, storeCustomerId), query);
  }

  /**
   * One group per entitlement active now whose product delivers by FILE and has a CONFIRMED file;
   * newest first, no total (reference). The eligible products are found first (the customer's
   * active products → those delivered by FILE → those with a confirmed file), then one keyset page
   * of entitlements for them.
   */
  async downloads(tenant: Tenant, customerId: string, query: PaginationQueryDto): Promise<PageResult<CustomerDownloadGroupDto>> {
    const db = this.unitOfWork.pool;
    const customer = await this.records.require(db, tenant, customerId);
    const page = toPageRequest(query);
    const now = this.clock.now();
    const deliveries = await this.products.fileDeliveries(db, tenant, await this.entitlements.activeProductIds(db, tenant, customer.id, now));
    const confirmed = await this.files.confirmedFiles(db, tenant, deliveries.flatMap((delivery) => delivery.fileIds));
    const groups = new Map(
      deliveries
        .map((delivery) => ({ ...delivery, files: delivery.fileIds.flatMap((id) => confirmed.get(id) ?? []) }))
        .filter((delivery) => delivery.files.length > 0)
        .map((delivery) => [delivery.productId, delivery]),
    );
    const entitlements = await this.entitlements.pageActive(db, tenant, customer.id, [...groups.keys()], now, page);
    return toPageResult(
      entitlements,
      page,
      (row) => row.created_at,
      (entitlement) => {
        const group = groups.get(entitlement.product_id);
        return {
          entitlement_id: entitlement.id,
          product_id: entitlement.product_id,
          product_name: group?.name ?? '',
          files: (group?.files ?? []).map((file) => ({ file_id: file.id, file_name: file.file_name, file_size: file.file_size, mime_type: file.mime_type })),
        };
      },
    );
  }

  private async listEntitlements(
    tenant: Tenant,
    customer: CustomerEntity,
    query: PaginationQueryDto,
  ): Promise<PageResult<CustomerEntitlementListItemDto>> {
    const page = await this.entitlements.pageForCustomer(tenant, customer, toPageRequest(query));
    return new PageResult(
      page.items.map(({ id, product_id, product_name, status, granted_at, expires_at, source, metadata }) => ({ id, product_id, product_name, status, granted_at, expires_at, source, metadata })),
      page.pagination,
    );
  }
}

function toCustomerResponse(customer: CustomerEntity): CustomerResponseDto {
  return { id: customer.id, store_customer_id: customer.store_customer_id, test_clock: customer.test_clock_id, created_at: customer.created_at.toISOString() };
}
