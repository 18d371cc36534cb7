import type { CustomerEntitlementListItemDto } from '../customers/dto/customer-entitlement-list-item.dto';
import { effectiveStatus } from './effective-status';
import type { EntitlementCheckItemDto, EntitlementListItemDto, EntitlementResponseDto } from './dto/entitlement-response.dto';
import type { EntitlementEntity } from './entitlement.entity';

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** An entitlement loaded with its customer (for store_customer_id). */
export type EntitlementWithCustomer = EntitlementEntity & { customer: { store_customer_id: string } };

export function toEntitlementListItem(entitlement: EntitlementWithCustomer, now: Date): EntitlementListItemDto {
  return {
    id: entitlement.id,
    customer_id: entitlement.customer_id,
    store_customer_id: entitlement.customer.store_customer_id,
    product_id: entitlement.product_id,
    status: effectiveStatus(entitlement, now),
    granted_at: entitlement.granted_at.toISOString(),
    expires_at: iso(entitlement.expires_at),
    revoked_at: iso(entitlement.revoked_at),
    revocation_reason: entitlement.revocation_reason,
    usage_count: entitlement.usage_count,
    usage_limit: entitlement.usage_limit,
    source: entitlement.source,
    store_order_id: entitlement.store_order_id,
    metadata: entitlement.metadata,
    created_at: entitlement.created_at.toISOString(),
    updated_at: entitlement.updated_at.toISOString(),
  };
}

export function toEntitlementResponse(entitlement: EntitlementWithCustomer, now: Date): EntitlementResponseDto {
  return {
    ...toEntitlementListItem(entitlement, now),
    store_line_item_id: entitlement.store_line_item_id,
    parent_entitlement_id: entitlement.parent_entitlement_id,
    suspended_at: iso(entitlement.suspended_at),
    suspension_reason: entitlement.suspension_reason,
  };
}

/** Check rows are already filtered to effectively active entitlements. */
export function toEntitlementCheckItem(
  entitlement: Pick<EntitlementEntity, 'id' | 'product_id' | 'granted_at' | 'expires_at' | 'metadata'>,
): EntitlementCheckItemDto {
  return {
    id: entitlement.id,
    product_id: entitlement.product_id,
    status: 'active',
    granted_at: entitlement.granted_at.toISOString(),
    expires_at: iso(entitlement.expires_at),
    metadata: entitlement.metadata,
    access_type: 'direct',
  };
}

export function toCustomerEntitlementListItem(entitlement: EntitlementEntity, now: Date): CustomerEntitlementListItemDto {
  return {
    id: entitlement.id,
    product_id: entitlement.product_id,
    status: effectiveStatus(entitlement, now),
    granted_at: entitlement.granted_at.toISOString(),
    expires_at: iso(entitlement.expires_at),
    source: entitlement.source,
    metadata: entitlement.metadata,
  };
}
