import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { Clock } from '../clock/clock';
import { toCustomerEntitlementListItem } from '../entitlements/entitlement.mapper';
import { PageResult } from '../envelope/page-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isValidId } from '../ids/id';
import { toPageRequest, toPageResult } from '../pagination/page';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { CustomerEntity } from './customer.entity';
import { CustomersRepository } from './customers.repository';
import { CustomerEntitlementListItemDto } from './dto/customer-entitlement-list-item.dto';

/** Customers: implicit creation by store id, lookups for other modules, entitlement lists. */
@Injectable()
export class CustomersService {
  constructor(
    private readonly customers: CustomersRepository,
    private readonly clock: Clock,
  ) {}

  /** The customer of this tenant, or 404 CUSTOMER_NOT_FOUND (also for malformed ids and other tenants' ids). */
  async require(tenant: Tenant, customerId: string, manager?: EntityManager): Promise<CustomerEntity> {
    const customer = isValidId('cus', customerId) ? await this.customers.findById(tenant, customerId, manager) : null;
    if (!customer) throw new ApiError(ErrorCode.CUSTOMER_NOT_FOUND, `No customer with id '${customerId}'`);
    return customer;
  }

  /** The customer with this store id, or 404 CUSTOMER_NOT_FOUND. */
  async requireByStoreId(tenant: Tenant, storeCustomerId: string): Promise<CustomerEntity> {
    const customer = await this.customers.findByStoreId(tenant, storeCustomerId);
    if (!customer) throw new ApiError(ErrorCode.CUSTOMER_NOT_FOUND, `No customer with store_customer_id '${storeCustomerId}'`);
    return customer;
  }

  /** The customer with this store id, created in `manager`'s transaction if it is new. */
  findOrCreateByStoreId(manager: EntityManager, tenant: Tenant, storeCustomerId: string): Promise<CustomerEntity> {
    return this.customers.upsertByStoreId(manager, tenant, storeCustomerId);
  }

  /** GET /v1/customers/{id}/entitlements: every status, 404 for an unknown customer. */
  async listEntitlementsById(
    tenant: Tenant,
    customerId: string,
    query: PaginationQueryDto,
  ): Promise<PageResult<CustomerEntitlementListItemDto>> {
    return this.listEntitlements(tenant, await this.require(tenant, customerId), query);
  }

  /** GET /v1/customers/store/{store_customer_id}/entitlements. */
  async listEntitlementsByStoreId(
    tenant: Tenant,
    storeCustomerId: string,
    query: PaginationQueryDto,
  ): Promise<PageResult<CustomerEntitlementListItemDto>> {
    return this.listEntitlements(tenant, await this.requireByStoreId(tenant, storeCustomerId), query);
  }

  private async listEntitlements(
    tenant: Tenant,
    customer: CustomerEntity,
    query: PaginationQueryDto,
  ): Promise<PageResult<CustomerEntitlementListItemDto>> {
    const page = toPageRequest(query);
    const now = this.clock.now();
    const { rows, total } = await this.customers.listEntitlements(tenant, customer.id, page);
    return toPageResult(rows, page, (row) => row.created_at, (row) => toCustomerEntitlementListItem(row, now), total);
  }
}
