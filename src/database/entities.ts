import { ApiKeyEntity } from '../auth/api-key.entity';
import { MerchantEntity } from '../auth/merchant.entity';
import { ProductEntity } from '../products/product.entity';
import { EventEntity } from '../webhooks/event.entity';

/** Every entity, listed explicitly so ts-node, jest and the compiled build load the same set. */
export const ENTITIES = [MerchantEntity, ApiKeyEntity, ProductEntity, EventEntity];
