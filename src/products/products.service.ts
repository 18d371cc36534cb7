import { Injectable } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { PageResult } from '../envelope/page-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isValidId } from '../ids/id';
import { toPageRequest, toPageResult } from '../pagination/page';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { ProductListItemDto, ProductResponseDto } from './dto/product-response.dto';
import { ProductEntity } from './product.entity';
import { toProductListItem, toProductResponse } from './product.mapper';
import { ProductsRepository } from './products.repository';

@Injectable()
export class ProductsService {
  constructor(private readonly products: ProductsRepository) {}

  async list(tenant: Tenant, query: PaginationQueryDto): Promise<PageResult<ProductListItemDto>> {
    const page = toPageRequest(query);
    const { rows, total } = await this.products.list(tenant, page);
    return toPageResult(rows, page, (row) => row.created_at, toProductListItem, total);
  }

  async get(tenant: Tenant, productId: string): Promise<ProductResponseDto> {
    return toProductResponse(await this.require(tenant, productId));
  }

  /** The product of this tenant, or 404 PRODUCT_NOT_FOUND (also for malformed ids and other tenants' ids). */
  async require(tenant: Tenant, productId: string): Promise<ProductEntity> {
    const product = isValidId('prod', productId) ? await this.products.findById(tenant, productId) : null;
    if (!product) throw new ApiError(ErrorCode.PRODUCT_NOT_FOUND, `No product with id '${productId}'`);
    return product;
  }
}
