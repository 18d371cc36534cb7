import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../database/tenant';
import type { Operation } from '../database/operation';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { CurrentOperation } from '../idempotency/current-operation.decorator';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiJsonBody } from '../swagger/api-json-body.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { ListProductsQueryDto } from './dto/product-query.dto';
import { CreateProductDto, UpdateProductDto } from './dto/product-request.dto';
import { ProductListItemDto, ProductResponseDto } from './dto/product-response.dto';
import { ProductsService } from './products.service';
import { ApiIdParam } from '../swagger/api-path-parameters';
import { mayLag } from '../swagger/replica-lag';

const PRODUCT_ID_PARAM = ApiIdParam('product_id', 'prod', 'Product', ['POST /v1/products', 'GET /v1/products']);

@ApiTags('products')
@Controller('v1/products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get()
  @RequireScopes('products:read')
  @ApiOperation(mayLag({
    summary: 'List products',
    description:
      'Newest first, cursor-paginated with total. `search` matches an exact product id, an exact store product id, or a part of the ' +
      'name (case-insensitive); `status` keeps active or archived products only; `ids` (comma-separated) reads up to 100 named products at once.',
  }))
  @ApiEnvelopeResponse(ProductListItemDto, { description: 'A page of products', list: 'total' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  list(@CurrentTenant() tenant: Tenant, @Query() query: ListProductsQueryDto): Promise<PageResult<ProductListItemDto>> {
    return this.products.list(tenant, query);
  }

  @Get(':product_id')
  @RequireScopes('products:read')
  @ApiOperation({ summary: 'Get a product', description: 'The full product, with fulfillment config.' })
  @PRODUCT_ID_PARAM
  @ApiEnvelopeResponse(ProductResponseDto, { description: 'The product' })
  @ApiErrorResponses(ErrorCode.PRODUCT_NOT_FOUND)
  get(@CurrentTenant() tenant: Tenant, @Param('product_id') productId: string): Promise<ProductResponseDto> {
    return this.products.get(tenant, productId);
  }

  @Post()
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Create a product',
    description:
      '`name` and `entitlement_type` are required; `access_duration_days` iff time_limited, `usage_limit` iff usage_limited. ' +
      'fulfillment_config: FILE (`file_ids` of your files), URL (an https `access_url`) or INSTRUCTIONS (`access_instructions`). ' +
      '`store_product_id` is unique per merchant and mode. Publishes `product.created`. Accepts `Idempotency-Key`.',
  })
  @ApiJsonBody(CreateProductDto, {
    name: 'Field Sketching (video course)',
    entitlement_type: 'time_limited',
    access_duration_days: 365,
    store_product_id: 'sku_video_course',
    description: 'Twelve lessons, a year of access',
    metadata: { level: 'beginner' },
    fulfillment_config: { delivery_method: 'URL', access_url: 'https://course.example.com/enroll' },
  })
  @ApiEnvelopeResponse(ProductResponseDto, { status: 201, description: 'The created product' })
  @ApiErrorResponses(
    ErrorCode.MISSING_REQUIRED_FIELD,
    ErrorCode.INVALID_PARAMETER,
    ErrorCode.INVALID_JSON,
    ErrorCode.PAYLOAD_TOO_LARGE,
    ErrorCode.DUPLICATE_STORE_ID,
  )
  create(@CurrentOperation() operation: Operation, @Body() body: CreateProductDto): Promise<ProductResponseDto> {
    return this.products.create(operation, body);
  }

  @Patch(':product_id')
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Update a product',
    description:
      'Only the fields sent change; `metadata`, `store_variant_ids` and `fulfillment_config` are replaced whole. ' +
      'Allowed on archived products (`status: "active"` un-archives). Changing `entitlement_type` affects future grants only. ' +
      'Publishes `product.updated` when something changed.',
  })
  @PRODUCT_ID_PARAM
  @ApiJsonBody(UpdateProductDto, { name: 'Field Sketching (video course, 2nd edition)', access_duration_days: 730, metadata: { level: 'beginner', edition: 2 } })
  @ApiEnvelopeResponse(ProductResponseDto, { description: 'The updated product' })
  @ApiErrorResponses(
    ErrorCode.MISSING_REQUIRED_FIELD,
    ErrorCode.INVALID_PARAMETER,
    ErrorCode.INVALID_JSON,
    ErrorCode.PAYLOAD_TOO_LARGE,
    ErrorCode.PRODUCT_NOT_FOUND,
    ErrorCode.DUPLICATE_STORE_ID,
  )
  update(
    @CurrentOperation() operation: Operation,
    @Param('product_id') productId: string,
    @Body() body: UpdateProductDto,
  ): Promise<ProductResponseDto> {
    return this.products.update(operation, productId, body);
  }

  @Delete(':product_id')
  @HttpCode(200)
  @RequireScopes('products:write')
  @ApiOperation({
    summary: 'Archive a product',
    description:
      'Sets status `archived`: new grants are refused (409 PRODUCT_ARCHIVED), existing entitlements keep working. ' +
      'Nothing is deleted; archiving again is a no-op. Publishes `product.updated`.',
  })
  @PRODUCT_ID_PARAM
  @ApiEnvelopeResponse(ProductResponseDto, { description: 'The archived product' })
  @ApiErrorResponses(ErrorCode.PRODUCT_NOT_FOUND)
  archive(@CurrentOperation() operation: Operation, @Param('product_id') productId: string): Promise<ProductResponseDto> {
    return this.products.archive(operation, productId);
  }
}
