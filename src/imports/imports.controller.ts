import { ApiJsonBody } from '../swagger/api-json-body.decorator';
import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import type { Operation } from '../database/operation';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { CurrentOperation } from '../idempotency/current-operation.decorator';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { CreateImportDto } from './dto/create-import.dto';
import { ImportResponseDto } from './dto/import-response.dto';
import { ImportRequestBody } from './import-request-body.decorator';
import { ImportsService } from './imports.service';
import { ApiIdParam } from '../swagger/api-path-parameters';
import { mayLag } from '../swagger/replica-lag';

@ApiTags('entitlement-imports')
@Controller('v1/entitlement-imports')
export class ImportsController {
  constructor(private readonly imports: ImportsService) {}

  @Post()
  @HttpCode(202)
  @RequireScopes('entitlements:write')
  @ApiOperation({
    summary: 'Import entitlements',
    description:
      'Moves existing grants in from another system: `text/csv` with a header row (columns store_customer_id | ' +
      'customer_id, product_id | store_product_id, expires_at, usage_limit, store_order_id, metadata as JSON text; an ' +
      'empty cell is an absent value), or JSON `{"rows": [...]}`. 1 to 100,000 rows, at most 20 MiB. Answers 202 at ' +
      'once; the rows are granted in the background (source import) in batches, each its own transaction, resumed ' +
      'after a crash with no row granted twice. A row whose customer already holds an active entitlement for the ' +
      'product is skipped; an invalid row fails alone (its row number, counted from 1 without the header, code and ' +
      'message; the first 1,000 are listed). Publishes entitlement.created per grant and import.completed at the end. ' +
      'Test mode: a JSON body may name the import\'s test clock (test_clock), which binds the customers its rows create.',
  })
  @ApiConsumes('application/json', 'text/csv')
  @ApiJsonBody(CreateImportDto, {
    rows: [{ store_customer_id: 'store_cust_2001', store_product_id: 'sku_ebook_42', expires_at: '2030-01-15T10:30:00Z', store_order_id: 'legacy_order_77', metadata: { migrated_from: 'legacy' } }],
  })
  @ApiEnvelopeResponse(ImportResponseDto, { status: 202, description: 'The import, queued' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER, ErrorCode.TEST_CLOCK_NOT_FOUND, ErrorCode.IDEMPOTENCY_KEY_CONFLICT)
  create(@CurrentOperation() operation: Operation, @ImportRequestBody() body: unknown): Promise<ImportResponseDto> {
    return this.imports.create(operation, body);
  }

  @Get()
  @RequireScopes('entitlements:read')
  @ApiOperation(mayLag({ summary: 'List imports', description: 'Newest first, cursor-paginated with total.' }))
  @ApiEnvelopeResponse(ImportResponseDto, { description: 'A page of imports', list: 'total' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  list(@CurrentTenant() tenant: Tenant, @Query() query: PaginationQueryDto): Promise<PageResult<ImportResponseDto>> {
    return this.imports.list(tenant, query);
  }

  @Get(':import_id')
  @RequireScopes('entitlements:read')
  @ApiOperation({ summary: 'Get an import', description: 'Its progress while it runs (processed_rows, granted, skipped, failed, errors), its report once completed.' })
  @ApiIdParam('import_id', 'imp', 'Import', ['POST /v1/entitlement-imports', 'GET /v1/entitlement-imports'])
  @ApiEnvelopeResponse(ImportResponseDto, { description: 'The import' })
  @ApiErrorResponses(ErrorCode.IMPORT_NOT_FOUND)
  get(@CurrentTenant() tenant: Tenant, @Param('import_id') importId: string): Promise<ImportResponseDto> {
    return this.imports.get(tenant, importId);
  }
}
