import { LicenseActivationResponseDto, LicenseKeyResponseDto } from './dto/license-key-response.dto';
import type { LicenseActivationEntity } from './license-activation.entity';
import type { LicenseKeyEntity } from './license-key.entity';
import type { LicenseStatus } from './license-status';

export function toLicenseKeyResponse(license: LicenseKeyEntity, displayedKey: string, status: LicenseStatus, activationsCount: number): LicenseKeyResponseDto {
  return {
    id: license.id,
    key: displayedKey,
    entitlement_id: license.entitlement_id,
    customer_id: license.customer_id,
    product_id: license.product_id,
    status,
    activation_limit: license.activation_limit,
    activations_count: activationsCount,
    activation_ttl_seconds: license.activation_ttl_seconds,
    created_at: license.created_at.toISOString(),
  };
}

export function toLicenseActivationResponse(activation: LicenseActivationEntity): LicenseActivationResponseDto {
  return {
    id: activation.id,
    license_key_id: activation.license_key_id,
    fingerprint: activation.fingerprint,
    name: activation.name,
    metadata: activation.metadata,
    created_at: activation.created_at.toISOString(),
    last_seen_at: activation.last_seen_at.toISOString(),
  };
}
