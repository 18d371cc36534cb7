import { ADMIN_TOKEN, api, Server } from './harness';

export interface DownloadTarget {
  fileId: string;
  entitlementId: string;
  customerId: string;
}

export interface SeededMerchant {
  merchantId: string;
  key: string;
  /** Products with store ids `bench_sku_<index>`, each delivering the one file. */
  productIds: string[];
  downloads: DownloadTarget[];
}

/**
 * Through the API: a merchant on the enterprise plan, a live key, one confirmed 1-byte file,
 * `products` products delivering it and `downloadEntitlements` entitlements (a customer each) to
 * the first product, for the download scenarios.
 */
export async function seedMerchant(server: Server, counts: { products: number; downloadEntitlements: number }): Promise<SeededMerchant> {
  const merchant = await api<{ id: string }>(server.baseUrl, 'POST', '/admin/v1/merchants', ADMIN_TOKEN, { name: 'Bench', plan: 'enterprise' });
  const key = (
    await api<{ key: string }>(server.baseUrl, 'POST', `/admin/v1/merchants/${merchant.id}/api-keys`, ADMIN_TOKEN, { mode: 'live', scopes: ['*'] })
  ).key;
  const upload = await api<{ file_id: string; upload_url: string; upload_headers: Record<string, string> }>(
    server.baseUrl,
    'POST',
    '/v1/files/upload-url',
    key,
    { file_name: 'bench.txt', file_size: 1, mime_type: 'text/plain' },
  );
  const put = await fetch(upload.upload_url, { method: 'PUT', headers: upload.upload_headers, body: 'x' });
  if (!put.ok) throw new Error(`upload failed: ${put.status}`);
  await api(server.baseUrl, 'POST', `/v1/files/${upload.file_id}/confirm`, key);
  const productIds: string[] = [];
  for (let index = 0; index < counts.products; index += 1) {
    const product = await api<{ id: string }>(server.baseUrl, 'POST', '/v1/products', key, {
      name: `Bench product ${index}`,
      store_product_id: `bench_sku_${index}`,
      entitlement_type: 'permanent',
      fulfillment_config: { delivery_method: 'FILE', file_ids: [upload.file_id] },
    });
    productIds.push(product.id);
  }
  // Downloads rotate over many customers' entitlements of the one merchant: the uses of one
  // entitlement count in turn (its row is locked), so one entitlement would measure that lock.
  const downloads: DownloadTarget[] = [];
  for (let index = 0; index < counts.downloadEntitlements; index += 1) {
    const entitlement = await api<{ id: string; customer_id: string }>(server.baseUrl, 'POST', '/v1/entitlements', key, {
      store_customer_id: `bench_download_customer_${index}`,
      product_id: productIds[0],
    });
    downloads.push({ fileId: upload.file_id, entitlementId: entitlement.id, customerId: entitlement.customer_id });
  }
  return { merchantId: merchant.id, key, productIds, downloads };
}

export function downloadPaths(downloads: DownloadTarget[]): string[] {
  return downloads.map((download) => `/v1/files/${download.fileId}/download?entitlement_id=${download.entitlementId}&customer_id=${download.customerId}`);
}
