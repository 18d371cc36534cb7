/** The portal's own JSON routes (/portal/api/, src/portal/portal-api.controller.ts), answered in the API's envelope. */

export interface Branding {
  display_name: string | null;
  accent_color: string | null;
  logo_url: string | null;
  support_url: string | null;
}

export interface Session {
  customer_id: string;
  store_customer_id: string;
  livemode: boolean;
  csrf_token: string;
  return_url: string | null;
  branding: Branding;
}

export interface PortalFile {
  id: string;
  file_name: string;
  file_size: number;
  mime_type: string;
}

export interface Delivery {
  method: string;
  url: string | null;
  instructions: string | null;
  files: PortalFile[];
}

export interface Entitlement {
  id: string;
  product_id: string;
  product_name: string;
  description: string;
  status: string;
  granted_at: string;
  expires_at: string | null;
  delivery: Delivery | null;
}

export interface Activation {
  id: string;
  name: string | null;
  fingerprint: string;
  created_at: string;
  last_seen_at: string;
}

export interface LicenseKey {
  id: string;
  key: string;
  entitlement_id: string;
  product_id: string;
  status: string;
  activation_limit: number | null;
  activations_count: number;
  activations: Activation[];
}

/** A refusal of the portal's routes, with the catalogue's code (INVALID_SESSION: the session ended). */
export class PortalError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = '';

async function call<T>(method: string, path: string): Promise<T> {
  const response = await fetch(`/portal/api/${path}`, {
    method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...(method === 'GET' ? {} : { 'X-CSRF-Token': csrfToken }) },
  });
  const body = (await response.json().catch(() => null)) as { data?: T; error?: { code?: string; message?: string } } | null;
  if (!response.ok || !body || body.data === undefined) {
    throw new PortalError(response.status, body?.error?.code ?? 'UNKNOWN', body?.error?.message ?? `The request failed (${response.status})`);
  }
  return body.data;
}

export async function loadSession(): Promise<Session> {
  const session = await call<Session>('GET', 'session');
  csrfToken = session.csrf_token;
  return session;
}

export const loadEntitlements = () => call<{ active: Entitlement[]; inactive: Entitlement[] }>('GET', 'entitlements');
export const loadLicenseKeys = () => call<LicenseKey[]>('GET', 'license-keys');
export const requestDownload = (entitlementId: string, fileId: string) =>
  call<{ download_url: string; expires_at: string }>('POST', `entitlements/${encodeURIComponent(entitlementId)}/files/${encodeURIComponent(fileId)}/download`);
export const deactivate = (licenseKeyId: string, activationId: string) =>
  call<{ id: string; deleted: boolean }>('DELETE', `license-keys/${encodeURIComponent(licenseKeyId)}/activations/${encodeURIComponent(activationId)}`);
