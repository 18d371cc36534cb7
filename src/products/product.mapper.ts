import { ProductListItemDto, ProductResponseDto } from './dto/product-response.dto';
import { ProductEntity } from './product.entity';

export function toProductListItem(product: ProductEntity): ProductListItemDto {
  return {
    id: product.id,
    store_product_id: product.store_product_id,
    name: product.name,
    description: product.description,
    entitlement_type: product.entitlement_type,
    access_duration_days: product.access_duration_days,
    usage_limit: product.usage_limit,
    status: product.status,
    created_at: product.created_at.toISOString(),
  };
}

/** The full product; `fileIds` are its file links in order (product_files), `includedProductIds` its bundle items. */
export function toProductResponse(product: ProductEntity, fileIds: string[], includedProductIds: string[]): ProductResponseDto {
  return {
    ...toProductListItem(product),
    store_variant_ids: product.store_variant_ids,
    included_product_ids: includedProductIds,
    metadata: product.metadata,
    license: product.license ?? null,
    fulfillment_config: {
      delivery_method: product.fulfillment_config.delivery_method,
      file_ids: fileIds,
      access_url: product.fulfillment_config.access_url ?? null,
      access_instructions: product.fulfillment_config.access_instructions ?? null,
    },
    updated_at: product.updated_at.toISOString(),
  };
}
