import { ApiKeyEntity } from './auth/api-key.entity';
import { MerchantEntity } from './auth/merchant.entity';
import { BandwidthUsageEntity } from './billing/bandwidth-usage.entity';
import { StorageReservationEntity } from './billing/storage-reservation.entity';
import { StorageUsageEntity } from './billing/storage-usage.entity';
import { DashboardSessionEntity } from './dashboard/dashboard-session.entity';
import { DashboardSetupLinkEntity } from './dashboard/dashboard-setup-link.entity';
import { DashboardUserEntity } from './dashboard/dashboard-user.entity';
import { CustomerEntity } from './customer-records/customer.entity';
import { EntitlementEntity } from './entitlements/entitlement.entity';
import { DownloadEntity } from './files/download.entity';
import { FileEntity } from './files/file.entity';
import { GrantRuleEntity } from './grant-rules/grant-rule.entity';
import { IdempotencyKeyEntity } from './idempotency/idempotency-key.entity';
import { OrderLineItemEntity } from './orders/order-line-item.entity';
import { OrderEntity } from './orders/order.entity';
import { ProductBundleItemEntity } from './products/product-bundle-item.entity';
import { ProductFileEntity } from './products/product-file.entity';
import { ProductEntity } from './products/product.entity';
import { EntitlementImportEntity } from './imports/entitlement-import.entity';
import { ImportRowEntity } from './imports/import-row.entity';
import { SubscriptionEntity } from './subscriptions/subscription.entity';
import { EventEntity } from './webhooks/event.entity';
import { WebhookDeliveryAttemptEntity } from './webhooks/webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './webhooks/webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhooks/webhook-endpoint.entity';

/** Every entity, listed explicitly so ts-node, jest and the compiled build load the same set. */
export const ENTITIES = [MerchantEntity, ApiKeyEntity, ProductEntity, EventEntity, CustomerEntity, EntitlementEntity, FileEntity, DownloadEntity, StorageUsageEntity, StorageReservationEntity, BandwidthUsageEntity, ProductFileEntity, ProductBundleItemEntity, WebhookEndpointEntity, WebhookDeliveryEntity, WebhookDeliveryAttemptEntity, IdempotencyKeyEntity, GrantRuleEntity, OrderEntity, OrderLineItemEntity, SubscriptionEntity, EntitlementImportEntity, ImportRowEntity, DashboardUserEntity, DashboardSetupLinkEntity, DashboardSessionEntity];
