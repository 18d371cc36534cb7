import { ApiKeyEntity } from '../auth/api-key.entity';
import { MerchantEntity } from '../auth/merchant.entity';
import { BandwidthUsageEntity } from '../billing/bandwidth-usage.entity';
import { StorageUsageEntity } from '../billing/storage-usage.entity';
import { CustomerEntity } from '../customers/customer.entity';
import { EntitlementEntity } from '../entitlements/entitlement.entity';
import { DownloadEntity } from '../files/download.entity';
import { FileEntity } from '../files/file.entity';
import { IdempotencyKeyEntity } from '../idempotency/idempotency-key.entity';
import { ProductEntity } from '../products/product.entity';
import { EventEntity } from '../webhooks/event.entity';
import { WebhookDeliveryAttemptEntity } from '../webhooks/webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from '../webhooks/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../webhooks/webhook-endpoint.entity';

/** Every entity, listed explicitly so ts-node, jest and the compiled build load the same set. */
export const ENTITIES = [MerchantEntity, ApiKeyEntity, ProductEntity, EventEntity, CustomerEntity, EntitlementEntity, FileEntity, DownloadEntity, StorageUsageEntity, BandwidthUsageEntity, WebhookEndpointEntity, WebhookDeliveryEntity, WebhookDeliveryAttemptEntity, IdempotencyKeyEntity];
