import { Controller, Get, Headers, Param, Query, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import { CSV_EXPORT_PAGE_SIZE, csvExport, type CsvColumns, wantsCsv } from '../envelope/csv';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { CustomersService } from './customers.service';
import { CustomerDownloadGroupDto } from './dto/customer-download.dto';
import { CustomerEntitlementListItemDto } from './dto/customer-entitlement-list-item.dto';
import { ListCustomersQueryDto } from './dto/customer-query.dto';
import { CustomerResponseDto } from './dto/customer-response.dto';
import { ApiIdParam, ApiStoreIdParam, IdSource } from '../swagger/api-path-parameters';
import { mayLag } from '../swagger/replica-lag';

/** The customers list's CSV export (Accept: text/csv). */
const CUSTOMER_CSV_COLUMNS: CsvColumns<CustomerResponseDto> = ['id', 'store_customer_id', 'test_clock', 'created_at'];

const CUSTOMER_ID_SOURCES: IdSource[] = ['GET /v1/customers', ['POST /v1/entitlements', 'customer_id'], ['GET /v1/entitlements', 'customer_id']];

/** Customers, and a customer's entitlements and downloadable files. */
@ApiTags('customers')
@Controller('v1/customers')
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  @Get()
  @RequireScopes('customers:read')
  @ApiOperation(mayLag({
    summary: 'List customers',
    description:
      'Newest first, cursor-paginated with total. `search` matches an exact customer id or the start of a store customer id ' +
      '(case-sensitive); `created_after` and `created_before` are exclusive bounds.',
  }))
  @ApiEnvelopeResponse(CustomerResponseDto, { description: 'A page of customers', list: 'total', csvColumns: CUSTOMER_CSV_COLUMNS })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  list(
    @CurrentTenant() tenant: Tenant,
    @Query() query: ListCustomersQueryDto,
    @Headers('accept') accept: string | undefined,
  ): Promise<PageResult<CustomerResponseDto> | StreamableFile> {
    if (!wantsCsv(accept)) return this.customers.list(tenant, query);
    return csvExport('customers.csv', CUSTOMER_CSV_COLUMNS, (cursor) => this.customers.list(tenant, { ...query, limit: CSV_EXPORT_PAGE_SIZE, cursor }));
  }

  @Get('store/:store_customer_id')
  @RequireScopes('customers:read')
  @ApiOperation({ summary: 'Get a customer by store customer id', description: 'The customer record: id, store customer id, creation time.' })
  @ApiStoreIdParam('store_customer_id', 'Customer id in the e-commerce platform, as granted with `store_customer_id`', 'store_cust_1001')
  @ApiEnvelopeResponse(CustomerResponseDto, { description: 'The customer' })
  @ApiErrorResponses(ErrorCode.CUSTOMER_NOT_FOUND)
  getByStoreId(@CurrentTenant() tenant: Tenant, @Param('store_customer_id') storeCustomerId: string): Promise<CustomerResponseDto> {
    return this.customers.getByStoreId(tenant, storeCustomerId);
  }

  @Get(':customer_id')
  @RequireScopes('customers:read')
  @ApiOperation({ summary: 'Get a customer', description: 'The customer record: id, store customer id, creation time.' })
  @ApiIdParam('customer_id', 'cus', 'Customer', CUSTOMER_ID_SOURCES)
  @ApiEnvelopeResponse(CustomerResponseDto, { description: 'The customer' })
  @ApiErrorResponses(ErrorCode.CUSTOMER_NOT_FOUND)
  get(@CurrentTenant() tenant: Tenant, @Param('customer_id') customerId: string): Promise<CustomerResponseDto> {
    return this.customers.get(tenant, customerId);
  }

  @Get('store/:store_customer_id/entitlements')
  @RequireScopes('customers:read')
  @ApiOperation(mayLag({
    summary: "List a customer's entitlements by store customer id",
    description: 'Every status, newest first, cursor-paginated with total. Status is effective (time/usage expiry applied).',
  }))
  @ApiStoreIdParam('store_customer_id', 'Customer id in the e-commerce platform, as granted with `store_customer_id`', 'store_cust_1001')
  @ApiEnvelopeResponse(CustomerEntitlementListItemDto, { description: "A page of the customer's entitlements", list: 'total' })
  @ApiErrorResponses(ErrorCode.CUSTOMER_NOT_FOUND, ErrorCode.INVALID_PARAMETER)
  listEntitlementsByStoreId(
    @CurrentTenant() tenant: Tenant,
    @Param('store_customer_id') storeCustomerId: string,
    @Query() query: PaginationQueryDto,
  ): Promise<PageResult<CustomerEntitlementListItemDto>> {
    return this.customers.listEntitlementsByStoreId(tenant, storeCustomerId, query);
  }

  @Get(':customer_id/entitlements')
  @RequireScopes('customers:read')
  @ApiOperation(mayLag({
    summary: "List a customer's entitlements",
    description: 'Every status, newest first, cursor-paginated with total. Status is effective (time/usage expiry applied).',
  }))
  @ApiIdParam('customer_id', 'cus', 'Customer', CUSTOMER_ID_SOURCES)
  @ApiEnvelopeResponse(CustomerEntitlementListItemDto, { description: "A page of the customer's entitlements", list: 'total' })
  @ApiErrorResponses(ErrorCode.CUSTOMER_NOT_FOUND, ErrorCode.INVALID_PARAMETER)
  listEntitlements(
    @CurrentTenant() tenant: Tenant,
    @Param('customer_id') customerId: string,
    @Query() query: PaginationQueryDto,
  ): Promise<PageResult<CustomerEntitlementListItemDto>> {
    return this.customers.listEntitlementsById(tenant, customerId, query);
  }

  @Get(':customer_id/downloads')
  @RequireScopes('customers:read')
  @ApiOperation({
    summary: "A customer's downloadable files",
    description:
      'One group per active entitlement (not revoked, suspended, time- or usage-expired) whose product delivers by FILE and has at least one CONFIRMED file. Newest entitlement first; paginated without total. Get a URL for one file from GET /v1/files/{file_id}/download.',
  })
  @ApiIdParam('customer_id', 'cus', 'Customer', CUSTOMER_ID_SOURCES)
  @ApiEnvelopeResponse(CustomerDownloadGroupDto, { description: 'A page of download groups', list: 'no-total' })
  @ApiErrorResponses(ErrorCode.CUSTOMER_NOT_FOUND, ErrorCode.INVALID_PARAMETER)
  listDownloads(
    @CurrentTenant() tenant: Tenant,
    @Param('customer_id') customerId: string,
    @Query() query: PaginationQueryDto,
  ): Promise<PageResult<CustomerDownloadGroupDto>> {
    return this.customers.downloads(tenant, customerId, query);
  }
}
