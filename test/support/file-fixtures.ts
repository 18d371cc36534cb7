import { DataSource } from 'typeorm';
import type { ApiMode } from '../../src/database/tenant';
import { CustomerEntity } from '../../src/customer-records/customer.entity';
import { EntitlementEntity } from '../../src/entitlements/entitlement.entity';
import { generateId } from '../../src/ids/id';
import { ProductEntity } from '../../src/products/product.entity';
import { bearer, TestApp } from './test-app';


export interface UploadedFile {
  fileId: string;
  uploadUrl: string;
  uploadHeaders: Record<string, string>;
}

/** Rows the files tests need from other modules, inserted directly with the app's DataSource. */
export class FileFixtures {
  constructor(private readonly testApp: TestApp) {}

  private get manager() {
    return this.testApp.app.get(DataSource).manager;
  }

  async product(merchantId: string, mode: ApiMode, options: { usageLimit?: number } = {}): Promise<ProductEntity> {
    return this.manager.save(
      ProductEntity,
      this.manager.create(ProductEntity, {
        id: generateId('prod'),
        merchant_id: merchantId,
        mode,
        name: `Product ${Math.random().toString(36).slice(2, 8)}`,
        store_product_id: null,
        entitlement_type: options.usageLimit ? 'usage_limited' : 'permanent',
        usage_limit: options.usageLimit ?? null,
        fulfillment_config: { delivery_method: 'FILE', access_url: null, access_instructions: null },
      }),
    );
  }

  async customer(merchantId: string, mode: ApiMode): Promise<CustomerEntity> {
    return this.manager.save(
      CustomerEntity,
      this.manager.create(CustomerEntity, {
        id: generateId('cus'),
        merchant_id: merchantId,
        mode,
        store_customer_id: `store_${Math.random().toString(36).slice(2)}`,
      }),
    );
  }

  async entitlement(
    merchantId: string,
    mode: ApiMode,
    customerId: string,
    productId: string,
    fields: Partial<Pick<EntitlementEntity, 'status' | 'usage_limit' | 'usage_count' | 'expires_at'>> = {},
  ): Promise<EntitlementEntity> {
    return this.manager.save(
      EntitlementEntity,
      this.manager.create(EntitlementEntity, {
        id: generateId('ent'),
        merchant_id: merchantId,
        mode,
        customer_id: customerId,
        product_id: productId,
        status: 'active',
        granted_at: new Date(),
        expires_at: null,
        usage_count: 0,
        usage_limit: null,
        source: 'api',
        metadata: {},
        ...fields,
      }),
    );
  }

  async uploadUrl(key: string, body: Record<string, unknown>): Promise<UploadedFile> {
    const response = await this.testApp.http.post('/v1/files/upload-url').set(bearer(key)).send(body).expect(201);
    return { fileId: response.body.data.file_id, uploadUrl: response.body.data.upload_url, uploadHeaders: response.body.data.upload_headers };
  }
}

/** PUTs bytes to an upload URL; `headers` adds the rest of upload_headers (S3 signs If-None-Match too). */
export function putObject(url: string, body: Buffer, contentType: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'PUT', headers: { ...headers, 'Content-Type': contentType }, body });
}

/**
 * Runs `work` while a separate database connection holds the file row's lock (SELECT … FOR
 * UPDATE), and releases the lock once it is done: a request that `work` starts and leaves
 * running waits for the lock until then.
 */
export async function withFileRowLocked(testApp: TestApp, fileId: string, work: () => Promise<void>): Promise<void> {
  const runner = testApp.app.get(DataSource).createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  try {
    await runner.query('SELECT id FROM files WHERE id = $1 FOR UPDATE', [fileId]);
    await work();
  } finally {
    await runner.commitTransaction();
    await runner.release();
  }
}
