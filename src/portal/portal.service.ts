import { portalActorOf } from '../auth/portal-session-lookup';
import { Injectable } from '@nestjs/common';
import type { PortalSessionCredential } from '../auth/auth-context';
import { MerchantsService } from '../auth/merchants.service';
import { CustomerRecordsService } from '../customer-records/customer-records.service';
import type { AuditObject } from '../database/audit-trail';
import type { Operation } from '../database/operation';
import type { Tenant } from '../database/tenant';
import { UnitOfWork } from '../database/unit-of-work';
import { EntitlementsService } from '../entitlements/entitlements.service';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { FileRecordsService } from '../files/file-records.service';
import { DownloadsService } from '../files/downloads.service';
import { LicenseKeysService } from '../licenses/license-keys.service';
import { ProductsService } from '../products/products.service';
import type { ProductResponseDto } from '../products/dto/product-response.dto';
import type { PortalDelivery, PortalDownload, PortalEntitlement, PortalEntitlements, PortalLicenseKey, PortalSession } from './dto/portal-app.dto';
import { PortalSettingsService } from './portal-settings.service';

/** The portal shows at most this many entitlements and license keys (one page of each). */
export const PORTAL_LIST_LIMIT = 100;
const ACTIVE = 'active';

/**
 * What a portal session may do (DESIGN §19), and nothing more: read its customer's deliveries,
 * download, and deactivate a device. Every read and effect goes through the owning module's
 * service (the download through exactly the service POST /v1/files/{id}/download calls), with the
 * session's tenant and customer, so every other customer's, merchant's or mode's id is a 404.
 */
@Injectable()
export class PortalService {
  constructor(
    private readonly customers: CustomerRecordsService,
    private readonly entitlementRecords: EntitlementsService,
    private readonly products: ProductsService,
    private readonly files: FileRecordsService,
    private readonly downloads: DownloadsService,
    private readonly licenseKeyRecords: LicenseKeysService,
    private readonly settings: PortalSettingsService,
    private readonly merchants: MerchantsService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async session(session: PortalSessionCredential): Promise<PortalSession> {
    const tenant = tenantOf(session);
    const [customer, merchant, branding] = await Promise.all([
      this.customers.require(this.unitOfWork.pool, tenant, session.customerId),
      this.merchants.require(session.merchantId),
      this.settings.get(tenant),
    ]);
    return {
      customer_id: customer.id,
      store_customer_id: customer.store_customer_id,
      livemode: session.mode === 'live',
      csrf_token: session.csrfToken,
      return_url: session.returnUrl,
      branding: { ...branding, display_name: branding.display_name ?? merchant.name },
    };
  }

  /** Newest first; the active ones with their delivery, the others (expired, suspended, revoked, pending) apart and without. */
  async entitlements(session: PortalSessionCredential): Promise<PortalEntitlements> {
    const tenant = tenantOf(session);
    const db = this.unitOfWork.pool;
    const customer = await this.customers.require(db, tenant, session.customerId);
    const page = await this.entitlementRecords.pageForCustomer(tenant, customer, { limit: PORTAL_LIST_LIMIT, after: null });
    const productIds = [...new Set(page.items.map((item) => item.product_id))];
    const products = new Map((await Promise.all(productIds.map((id) => this.products.get(tenant, id)))).map((product) => [product.id, product]));
    const fileIds = [...products.values()].flatMap((product) => (product.fulfillment_config.delivery_method === 'FILE' ? product.fulfillment_config.file_ids : []));
    const files = await this.files.confirmedFiles(db, tenant, fileIds);
    const shown = page.items.map((item): PortalEntitlement => {
      const product = products.get(item.product_id);
      const active = item.status === ACTIVE;
      return {
        id: item.id,
        product_id: item.product_id,
        product_name: product?.name ?? item.product_name,
        description: product?.description ?? '',
        status: item.status,
        granted_at: item.granted_at,
        expires_at: item.expires_at,
        delivery: active && product ? deliveryOf(product, files) : null,
      };
    });
    return { active: shown.filter((item) => item.status === ACTIVE), inactive: shown.filter((item) => item.status !== ACTIVE) };
  }

  /** A 60-second URL through DownloadsService.download, as POST /v1/files/{id}/download: the same checks, meters, use and event. */
  async download(session: PortalSessionCredential, entitlementId: string, fileId: string, clientAddress: string): Promise<PortalDownload> {
    const issued = await this.downloads.download(operationOf(session, 'portal.download', { type: 'file', id: fileId }, clientAddress), fileId, { entitlement_id: entitlementId, customer_id: session.customerId }, clientAddress);
    return { download_url: issued.download_url, expires_at: issued.expires_at };
  }

  async licenseKeys(session: PortalSessionCredential): Promise<PortalLicenseKey[]> {
    const tenant = tenantOf(session);
    const keys = await this.licenseKeyRecords.list(tenant, { customer_id: session.customerId, limit: PORTAL_LIST_LIMIT });
    return Promise.all(
      keys.items.map(async (key) => {
        const activations = await this.licenseKeyRecords.listActivations(tenant, key.id, { limit: PORTAL_LIST_LIMIT });
        return {
          id: key.id,
          key: key.key,
          entitlement_id: key.entitlement_id,
          product_id: key.product_id,
          status: key.status,
          activation_limit: key.activation_limit,
          activations_count: key.activations_count,
          activations: activations.items.map((activation) => ({ id: activation.id, name: activation.name, fingerprint: activation.fingerprint, created_at: activation.created_at, last_seen_at: activation.last_seen_at })),
        };
      }),
    );
  }

  /** Frees a device of the customer's own key (LicenseKeysService, which publishes license.deactivated); another customer's key is a 404. */
  async deactivate(session: PortalSessionCredential, licenseKeyId: string, activationId: string): Promise<{ id: string; deleted: boolean }> {
    const tenant = tenantOf(session);
    const key = await this.licenseKeyRecords.get(tenant, licenseKeyId);
    if (key.customer_id !== session.customerId) throw new ApiError(ErrorCode.LICENSE_KEY_NOT_FOUND, `No license key with id '${licenseKeyId}'`);
    return this.licenseKeyRecords.deleteActivation(operationOf(session, 'portal.deactivate', { type: 'license_activation', id: activationId }, null), key.id, activationId);
  }
}

function tenantOf(session: PortalSessionCredential): Tenant {
  return { merchantId: session.merchantId, mode: session.mode };
}

/** A portal write as an Operation: the customer is its actor in the audit log (DESIGN §11, §19). */
function operationOf(session: PortalSessionCredential, action: string, object: AuditObject, clientAddress: string | null): Operation {
  return {
    tenant: tenantOf(session),
    idempotency: null,
    credential: 'portal-session',
    audit: {
      merchantId: session.merchantId,
      mode: session.mode,
      actor: portalActorOf(session),
      action,
      object,
      requestId: null,
      clientAddress,
    },
  };
}

function deliveryOf(product: ProductResponseDto, files: Map<string, { id: string; file_name: string; file_size: number; mime_type: string }>): PortalDelivery {
  const config = product.fulfillment_config;
  if (config.delivery_method === 'URL') return { method: 'URL', url: config.access_url, instructions: null, files: [] };
  if (config.delivery_method === 'INSTRUCTIONS') return { method: 'INSTRUCTIONS', url: null, instructions: config.access_instructions, files: [] };
  const shown = config.file_ids.flatMap((id) => {
    const file = files.get(id);
    return file ? [{ id: file.id, file_name: file.file_name, file_size: file.file_size, mime_type: file.mime_type }] : [];
  });
  return { method: config.delivery_method, url: null, instructions: null, files: shown };
}
