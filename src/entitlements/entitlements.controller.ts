import { Body, Controller, Get, Headers, HttpCode, Param, Patch, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import type { Operation } from '../database/operation';
import { CSV_EXPORT_PAGE_SIZE, csvExport, type CsvColumns, wantsCsv } from '../envelope/csv';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { CurrentOperation } from '../idempotency/current-operation.decorator';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiJsonBody } from '../swagger/api-json-body.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { CreateEntitlementDto } from './dto/create-entitlement.dto';
import { EntitlementReasonDto, ReactivateEntitlementDto, RecordUsageDto } from './dto/entitlement-operation.dto';
import { CheckEntitlementQueryDto, ListEntitlementsQueryDto } from './dto/entitlement-query.dto';
import { EntitlementCheckResponseDto, EntitlementListItemDto, EntitlementResponseDto } from './dto/entitlement-response.dto';
import { UpdateEntitlementDto } from './dto/update-entitlement.dto';
import { EntitlementsService } from './entitlements.service';
import { CheckQueryPipe } from './check-query.pipe';
import { ApiIdParam } from '../swagger/api-path-parameters';
import { mayLag } from '../swagger/replica-lag';

const ENTITLEMENT_ID_PARAM = ApiIdParam('entitlement_id', 'ent', 'Entitlement', ['POST /v1/entitlements', 'GET /v1/entitlements']);
const TRANSITION_NOTE = 'Refused with 409 INVALID_STATUS_TRANSITION ("Cannot <operation> an entitlement that is <status>") where the lifecycle table forbids it.';


/** The entitlements list's CSV export (Accept: text/csv): every field of a list item. */
const ENTITLEMENT_CSV_COLUMNS: CsvColumns<EntitlementListItemDto> = [
  'id',
  'customer_id',
  'store_customer_id',
  'product_id',
  'product_name',
  'status',
  'granted_at',
  'expires_at',
  'revoked_at',
  'revocation_reason',
  'usage_count',
  'usage_limit',
  'source',
  'store_order_id',
  'metadata',
  'test_clock',
  'created_at',
  'updated_at',
];
@ApiTags('entitlements')
@Controller('v1/entitlements')
export class EntitlementsController {
  constructor(private readonly entitlements: EntitlementsService) {}

  @Get('check')
  @RequireScopes('entitlements:read')
  @ApiOperation({
    summary: 'Check access',
    description:
      'Low-latency check for one customer and one product (exactly one of customer_id/store_customer_id and one of ' +
      'product_id/store_product_id). Unknown customers or products are simply not entitled (never 404). Reflects ' +
      'revokes, suspensions and time/usage expiry from the instant they happen. When several entitlements qualify, ' +
      'the one lasting longest is returned.',
  })
  @ApiEnvelopeResponse(EntitlementCheckResponseDto, { description: 'Whether the customer is entitled, and the entitlement' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER)
  check(@CurrentTenant() tenant: Tenant, @Query(CheckQueryPipe) query: CheckEntitlementQueryDto): Promise<EntitlementCheckResponseDto> {
    return this.entitlements.check(tenant, query);
  }

  @Get()
  @RequireScopes('entitlements:read')
  @ApiOperation(mayLag({
    summary: 'List entitlements',
    description:
      'Needs at least one filter (400 FILTER_REQUIRED otherwise). Newest first, cursor-paginated with total. status ' +
      'filters on the effective status; status and source accept upper or lower case; granted_after is inclusive, ' +
      'granted_before exclusive.',
  }))
  @ApiEnvelopeResponse(EntitlementListItemDto, { description: 'A page of entitlements', list: 'total', csvColumns: ENTITLEMENT_CSV_COLUMNS })
  @ApiErrorResponses(ErrorCode.FILTER_REQUIRED, ErrorCode.INVALID_PARAMETER)
  list(
    @CurrentTenant() tenant: Tenant,
    @Query() query: ListEntitlementsQueryDto,
    @Headers('accept') accept: string | undefined,
  ): Promise<PageResult<EntitlementListItemDto> | StreamableFile> {
    if (!wantsCsv(accept)) return this.entitlements.list(tenant, query);
    return csvExport('entitlements.csv', ENTITLEMENT_CSV_COLUMNS, (cursor) => this.entitlements.list(tenant, { ...query, limit: CSV_EXPORT_PAGE_SIZE, cursor }));
  }

  @Get(':entitlement_id')
  @RequireScopes('entitlements:read')
  @ApiOperation({ summary: 'Get an entitlement', description: 'The full entitlement, including store_line_item_id and parent_entitlement_id.' })
  @ENTITLEMENT_ID_PARAM
  @ApiEnvelopeResponse(EntitlementResponseDto, { description: 'The entitlement' })
  @ApiErrorResponses(ErrorCode.ENTITLEMENT_NOT_FOUND)
  get(@CurrentTenant() tenant: Tenant, @Param('entitlement_id') entitlementId: string): Promise<EntitlementResponseDto> {
    return this.entitlements.get(tenant, entitlementId);
  }

  @Post()
  @RequireScopes('entitlements:grant')
  @ApiOperation({
    summary: 'Grant a product',
    description:
      'Creates an entitlement (source api, status active unless status "pending" is passed). The customer is named by ' +
      'customer_id (must exist) or store_customer_id (created if new); the product by product_id or store_product_id. ' +
      "Defaults from the product: time_limited → expires_at = now + access_duration_days; usage_limited → the product's " +
      'usage_limit. Publishes entitlement.created.',
  })
  // Store ids: the demo catalogue has the product (src/demo/demo-catalogue.ts); the customer is created if new.
  @ApiJsonBody(CreateEntitlementDto, { store_customer_id: 'store_cust_1001', store_product_id: 'sku_ebook_42', store_order_id: 'order_5001', metadata: { order_note: 'gift' } })
  @ApiEnvelopeResponse(EntitlementResponseDto, { status: 201, description: 'The created entitlement' })
  @ApiErrorResponses(
    ErrorCode.MISSING_REQUIRED_FIELD,
    ErrorCode.INVALID_PARAMETER,
    ErrorCode.CUSTOMER_NOT_FOUND,
    ErrorCode.PRODUCT_NOT_FOUND,
    ErrorCode.PRODUCT_ARCHIVED,
    ErrorCode.IDEMPOTENCY_KEY_CONFLICT,
  )
  create(@CurrentOperation() operation: Operation, @Body() body: CreateEntitlementDto): Promise<EntitlementResponseDto> {
    return this.entitlements.create(operation, body);
  }

  @Patch(':entitlement_id')
  @RequireScopes('entitlements:write')
  @ApiOperation({
    summary: 'Update an entitlement',
    description:
      'Only the fields present change: expires_at (future, or null), metadata (replaced), usage_limit (≥ usage_count, ' +
      'or null). Not on revoked entitlements. Publishes entitlement.updated. ' + TRANSITION_NOTE,
  })
  @ENTITLEMENT_ID_PARAM
  @ApiBody({ type: UpdateEntitlementDto })
  @ApiEnvelopeResponse(EntitlementResponseDto, { description: 'The updated entitlement' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER, ErrorCode.ENTITLEMENT_NOT_FOUND, ErrorCode.INVALID_STATUS_TRANSITION)
  update(
    @CurrentOperation() operation: Operation,
    @Param('entitlement_id') entitlementId: string,
    @Body() body: UpdateEntitlementDto,
  ): Promise<EntitlementResponseDto> {
    return this.entitlements.update(operation, entitlementId, body);
  }

  @Post(':entitlement_id/suspend')
  @HttpCode(200)
  @RequireScopes('entitlements:grant')
  @ApiOperation({ summary: 'Suspend an entitlement', description: 'active → suspended. Publishes entitlement.suspended. ' + TRANSITION_NOTE })
  @ENTITLEMENT_ID_PARAM
  @ApiBody({ type: EntitlementReasonDto, required: false })
  @ApiEnvelopeResponse(EntitlementResponseDto, { description: 'The suspended entitlement' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER, ErrorCode.ENTITLEMENT_NOT_FOUND, ErrorCode.INVALID_STATUS_TRANSITION)
  suspend(
    @CurrentOperation() operation: Operation,
    @Param('entitlement_id') entitlementId: string,
    @Body() body: EntitlementReasonDto,
  ): Promise<EntitlementResponseDto> {
    return this.entitlements.suspend(operation, entitlementId, body);
  }

  @Post(':entitlement_id/reactivate')
  @HttpCode(200)
  @RequireScopes('entitlements:grant')
  @ApiOperation({
    summary: 'Reactivate an entitlement',
    description:
      'suspended or expired → active, optionally extending expires_at / usage_limit in the same step. If the result ' +
      'would be expired at once, 409 INVALID_STATUS_TRANSITION naming the field to extend. Publishes entitlement.reactivated. ' +
      TRANSITION_NOTE,
  })
  @ENTITLEMENT_ID_PARAM
  @ApiBody({ type: ReactivateEntitlementDto, required: false })
  @ApiEnvelopeResponse(EntitlementResponseDto, { description: 'The reactivated entitlement' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER, ErrorCode.ENTITLEMENT_NOT_FOUND, ErrorCode.INVALID_STATUS_TRANSITION)
  reactivate(
    @CurrentOperation() operation: Operation,
    @Param('entitlement_id') entitlementId: string,
    @Body() body: ReactivateEntitlementDto,
  ): Promise<EntitlementResponseDto> {
    return this.entitlements.reactivate(operation, entitlementId, body);
  }

  @Post(':entitlement_id/usage')
  @HttpCode(200)
  @RequireScopes('entitlements:write')
  @ApiOperation({
    summary: 'Record usage',
    description:
      'Records uses of an active entitlement (non-file products; file downloads count themselves). The use that reaches ' +
      'usage_limit succeeds and the entitlement reads as expired from then on; further uses get 409 ' +
      'INVALID_STATUS_TRANSITION, as does a quantity larger than the uses left. Publishes entitlement.updated.',
  })
  @ENTITLEMENT_ID_PARAM
  @ApiBody({ type: RecordUsageDto, required: false })
  @ApiEnvelopeResponse(EntitlementResponseDto, { description: 'The entitlement with the new usage_count' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER, ErrorCode.ENTITLEMENT_NOT_FOUND, ErrorCode.INVALID_STATUS_TRANSITION)
  recordUsage(
    @CurrentOperation() operation: Operation,
    @Param('entitlement_id') entitlementId: string,
    @Body() body: RecordUsageDto,
  ): Promise<EntitlementResponseDto> {
    return this.entitlements.recordUsage(operation, entitlementId, body);
  }

  // Swagger UI lists the routes in this order and /docs fills the id of the last answer (DESIGN §20): the
  // transitions of a granted entitlement, revoke (terminal) last of them, then activate, of a pending one.
  @Post(':entitlement_id/revoke')
  @HttpCode(200)
  @RequireScopes('entitlements:grant')
  @ApiOperation({ summary: 'Revoke an entitlement', description: 'active, suspended or pending → revoked (terminal). Publishes entitlement.revoked. ' + TRANSITION_NOTE })
  @ENTITLEMENT_ID_PARAM
  @ApiBody({ type: EntitlementReasonDto, required: false })
  @ApiEnvelopeResponse(EntitlementResponseDto, { description: 'The revoked entitlement' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER, ErrorCode.ENTITLEMENT_NOT_FOUND, ErrorCode.INVALID_STATUS_TRANSITION)
  revoke(
    @CurrentOperation() operation: Operation,
    @Param('entitlement_id') entitlementId: string,
    @Body() body: EntitlementReasonDto,
  ): Promise<EntitlementResponseDto> {
    return this.entitlements.revoke(operation, entitlementId, body);
  }

  @Post(':entitlement_id/activate')
  @HttpCode(200)
  @RequireScopes('entitlements:write')
  @ApiOperation({ summary: 'Activate a pending entitlement', description: 'pending → active. Publishes entitlement.activated. ' + TRANSITION_NOTE })
  @ENTITLEMENT_ID_PARAM
  @ApiEnvelopeResponse(EntitlementResponseDto, { description: 'The activated entitlement' })
  @ApiErrorResponses(ErrorCode.ENTITLEMENT_NOT_FOUND, ErrorCode.INVALID_STATUS_TRANSITION)
  activate(@CurrentOperation() operation: Operation, @Param('entitlement_id') entitlementId: string): Promise<EntitlementResponseDto> {
    return this.entitlements.activate(operation, entitlementId);
  }
}
