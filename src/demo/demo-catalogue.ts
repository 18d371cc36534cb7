import type { CreateEntitlementDto } from '../entitlements/dto/create-entitlement.dto';
import type { CreateProductDto } from '../products/dto/product-request.dto';

/**
 * The demo merchant's catalogue: what the first start of an empty embedded database puts in its
 * test mode, so the examples of /docs run as shipped ("Try it out" → Execute). The examples name
 * these products and customers by store id, the one kind of id a document can know ahead
 * (test/e2e/swagger-ui.e2e-spec.ts executes every write operation on a fresh demo service).
 * Ids of records (prod_…, ent_…) are generated; each path parameter says which route returns one.
 */
export const DEMO_PRODUCTS = {
  ebook: {
    name: 'The Field Guide (ebook)',
    entitlement_type: 'permanent',
    store_product_id: 'sku_ebook_42',
    store_variant_ids: ['sku_ebook_42_pdf', 'sku_ebook_42_epub'],
    description: 'PDF and EPUB editions; upload the files with POST /v1/files/upload-url and product_id',
    metadata: { isbn: '978-0-00-000000-0' },
  },
  proMonthly: {
    name: 'Pro plan (monthly)',
    entitlement_type: 'subscription_linked',
    store_product_id: 'sku_pro_monthly',
    description: 'Active while the store subscription is: report it with PUT /v1/subscriptions/store/{store_subscription_id}',
    fulfillment_config: { delivery_method: 'URL', access_url: 'https://app.example.com/pro' },
  },
  apiCredits: {
    name: 'API credits (100 calls)',
    entitlement_type: 'usage_limited',
    usage_limit: 100,
    store_product_id: 'sku_api_credits_100',
    description: 'Each call records one use with POST /v1/entitlements/{entitlement_id}/usage',
    fulfillment_config: { delivery_method: 'INSTRUCTIONS', access_instructions: 'Call the API with your key; each call uses one credit.' },
  },
  desktopApp: {
    name: 'Desktop app',
    entitlement_type: 'permanent',
    store_product_id: 'sku_desktop_app',
    description: 'A grant issues a license key; the app activates it on up to 3 devices with POST /v1/licenses/activate',
    license: { activation_limit: 3 },
    fulfillment_config: { delivery_method: 'URL', access_url: 'https://app.example.com/download' },
  },
  starterBundle: {
    name: 'Starter bundle',
    entitlement_type: 'permanent',
    store_product_id: 'sku_starter_bundle',
    description: 'The Field Guide and 100 API credits: a grant of the bundle grants both',
    fulfillment_config: { delivery_method: 'INSTRUCTIONS', access_instructions: 'Everything in the bundle is delivered by its own products.' },
  },
} satisfies Record<string, CreateProductDto>;

/** Which products the bundle includes (by key of DEMO_PRODUCTS: their ids exist only once created). */
export const DEMO_BUNDLE_CONTENTS: ReadonlyArray<keyof typeof DEMO_PRODUCTS> = ['ebook', 'apiCredits'];

/**
 * Two customers: store_cust_1001 holds the bundle (so the check of sku_ebook_42 says yes, through
 * the bundle) and the desktop app (so a license key exists for the license routes of /docs),
 * store_cust_1002 a pending grant of the ebook (so activate has something to act on).
 */
/**
 * The device the desktop app's key is activated on at first start, as the app would (POST
 * /v1/licenses/activate): so the merchant's activation routes have one to list and release.
 */
export const DEMO_ACTIVATION = { fingerprint: 'demo-workstation', name: 'Demo workstation', metadata: { seeded: 'demo' } };

export const DEMO_GRANTS: ReadonlyArray<CreateEntitlementDto> = [
  { store_customer_id: 'store_cust_1001', store_product_id: DEMO_PRODUCTS.starterBundle.store_product_id, metadata: { seeded: 'demo' } },
  { store_customer_id: 'store_cust_1001', store_product_id: DEMO_PRODUCTS.desktopApp.store_product_id, metadata: { seeded: 'demo' } },
  { store_customer_id: 'store_cust_1002', store_product_id: DEMO_PRODUCTS.ebook.store_product_id, status: 'pending', metadata: { seeded: 'demo' } },
];
