import type { PortalSettingsResponseDto } from './portal-settings.dto';

/*
 * The answers of the portal app's own routes (/portal/api/): read only by this service's portal
 * page (portal/), built with it and outside the public OpenAPI document, so plain types.
 */

export interface PortalSession {
  customer_id: string;
  store_customer_id: string;
  livemode: boolean;
  /** Sent back as X-CSRF-Token on every state-changing request. */
  csrf_token: string;
  return_url: string | null;
  /** display_name falls back to the merchant's name. */
  branding: PortalSettingsResponseDto;
}

export interface PortalFile {
  id: string;
  file_name: string;
  file_size: number;
  mime_type: string;
}

export interface PortalDelivery {
  method: string;
  /** URL products: the link. */
  url: string | null;
  /** INSTRUCTIONS products: text, shown as text. */
  instructions: string | null;
  /** FILE products: their confirmed files. */
  files: PortalFile[];
}

export interface PortalEntitlement {
  id: string;
  product_id: string;
  product_name: string;
  description: string;
  status: string;
  granted_at: string;
  expires_at: string | null;
  /** Only for active entitlements. */
  delivery: PortalDelivery | null;
}

export interface PortalEntitlements {
  active: PortalEntitlement[];
  inactive: PortalEntitlement[];
}

export interface PortalDownload {
  download_url: string;
  expires_at: string;
}

export interface PortalActivation {
  id: string;
  name: string | null;
  fingerprint: string;
  created_at: string;
  last_seen_at: string;
}

export interface PortalLicenseKey {
  id: string;
  key: string;
  entitlement_id: string;
  product_id: string;
  status: string;
  activation_limit: number | null;
  activations_count: number;
  activations: PortalActivation[];
}
