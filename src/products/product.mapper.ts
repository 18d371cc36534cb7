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

export function toProductResponse(product: ProductEntity): ProductResponseDto {
  return {
    ...toProductListItem(product),
    store_variant_ids: product.store_variant_ids,
    metadata: product.metadata,
    fulfillment_config: {
      delivery_method: product.fulfillment_config.delivery_method,
      file_ids: product.fulfillment_config.file_ids ?? [],
      access_url: product.fulfillment_config.access_url ?? null,
      access_instructions: product.fulfillment_config.access_instructions ?? null,
    },
    updated_at: product.updated_at.toISOString(),
  };
}
