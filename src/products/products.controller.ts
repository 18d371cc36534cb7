import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-tenant.decorator';
import { RequireScopes } from '../auth/route-access.decorators';
import type { Tenant } from '../auth/tenant';
import { PageResult } from '../envelope/page-result';
import { ErrorCode } from '../errors/error-code.enum';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { ProductListItemDto, ProductResponseDto } from './dto/product-response.dto';
import { ProductsService } from './products.service';

@ApiTags('products')
@Controller('v1/products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get()
  @RequireScopes('products:read')
  @ApiOperation({ summary: 'List products', description: 'Newest first, cursor-paginated.' })
  @ApiEnvelopeResponse(ProductListItemDto, { description: 'A page of products', list: 'total' })
  @ApiErrorResponses(ErrorCode.INVALID_PARAMETER)
  list(@CurrentTenant() tenant: Tenant, @Query() query: PaginationQueryDto): Promise<PageResult<ProductListItemDto>> {
    return this.products.list(tenant, query);
  }

  @Get(':product_id')
  @RequireScopes('products:read')
  @ApiOperation({ summary: 'Get a product', description: 'The full product, with fulfillment config.' })
  @ApiParam({ name: 'product_id', description: 'Product id', example: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  @ApiEnvelopeResponse(ProductResponseDto, { description: 'The product' })
  @ApiErrorResponses(ErrorCode.PRODUCT_NOT_FOUND)
  get(@CurrentTenant() tenant: Tenant, @Param('product_id') productId: string): Promise<ProductResponseDto> {
    return this.products.get(tenant, productId);
  }
}
