import { effectiveStatus } from './effective-status';
import type { EntitlementCheckItemDto, EntitlementFieldsDto, EntitlementListItemDto, EntitlementResponseDto } from './dto/entitlement-response.dto';
import type { EntitlementEntity } from './entitlement.entity';

/** An entitlement as a grant or an operation left it: what the entitlements module answers with, and what other modules get (never a response DTO). */
export interface ChangedEntitlement {
  entitlement: EntitlementEntity;
  /** The customer's store id, for the response. */
  storeCustomerId: string;
  /** The instant the change was made at (its effective status is read at it). */
  at: Date;
}

/** The response of a grant or an operation. */
export function toChangedEntitlementResponse({ entitlement, storeCustomerId, at }: ChangedEntitlement): EntitlementResponseDto {
  return toEntitlementResponse(entitlement, storeCustomerId, at);
}

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** The fields of every shape; `storeCustomerId` is the customer's, looked up through the customers module. */
function toEntitlementFields(entitlement: EntitlementEntity, storeCustomerId: string, now: Date): EntitlementFieldsDto {
  return {
    id: entitlement.id,
    customer_id: entitlement.customer_id,
    store_customer_id: storeCustomerId,
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
    test_clock: entitlement.test_clock_id,
    created_at: entitlement.created_at.toISOString(),
    updated_at: entitlement.updated_at.toISOString(),
  };
}

/** The list shape; `productName` is the product's, read through the products module. */
export function toEntitlementListItem(entitlement: EntitlementEntity, storeCustomerId: string, productName: string, now: Date): EntitlementListItemDto {
  return { ...toEntitlementFields(entitlement, storeCustomerId, now), product_name: productName };
}

export function toEntitlementResponse(entitlement: EntitlementEntity, storeCustomerId: string, now: Date): EntitlementResponseDto {
  return {
    ...toEntitlementFields(entitlement, storeCustomerId, now),
    store_line_item_id: entitlement.store_line_item_id,
    parent_entitlement_id: entitlement.parent_entitlement_id,
    suspended_at: iso(entitlement.suspended_at),
    suspension_reason: entitlement.suspension_reason,
  };
}

/** Check rows are already filtered to effectively active entitlements; a bundle's child gives access of type `bundle`. */
export function toEntitlementCheckItem(
  entitlement: Pick<EntitlementEntity, 'id' | 'product_id' | 'granted_at' | 'expires_at' | 'metadata' | 'source'>,
): EntitlementCheckItemDto {
  return {
    id: entitlement.id,
    product_id: entitlement.product_id,
    status: 'active',
    granted_at: entitlement.granted_at.toISOString(),
    expires_at: iso(entitlement.expires_at),
    metadata: entitlement.metadata,
    access_type: entitlement.source === 'bundle' ? 'bundle' : 'direct',
  };
}
