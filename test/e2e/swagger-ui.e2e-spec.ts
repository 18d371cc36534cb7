import { existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { generateId } from '../../src/ids/id';
import { ProductEntity } from '../../src/products/product.entity';
import { createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * Swagger UI in a real browser (Debian's chromium, driven by playwright-core): authorize with a
 * test key, "Try it out" on the access check and on creating an entitlement, and read the
 * rendered status codes. `.ci/run` installs chromium; elsewhere the suite is skipped without it.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(__dirname, '..', 'artifacts');
const available = existsSync(CHROMIUM);
if (!available && process.env.CI === 'true') throw new Error(`CI needs chromium at ${CHROMIUM} (.ci/run installs it)`);
const describeWithBrowser = available ? describe : describe.skip;
if (!available) console.warn(`Swagger UI browser test skipped: no chromium at ${CHROMIUM}`);

describeWithBrowser('Swagger UI in a browser', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let browser: Browser;
  let page: Page;
  let product: ProductEntity;
  let baseUrl: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant();
    const manager = testApp.app.get(DataSource).manager;
    product = await manager.save(
      ProductEntity,
      manager.create(ProductEntity, {
        id: generateId('prod'),
        merchant_id: tenant.merchantId,
        mode: 'test',
        name: 'Browser product',
        store_product_id: 'browser_sku',
        entitlement_type: 'permanent',
        fulfillment_config: { delivery_method: 'URL', file_ids: [], access_url: 'https://example.com/a', access_instructions: null },
      }),
    );
    await testApp.app.listen(0, '127.0.0.1');
    baseUrl = await testApp.app.getUrl();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 2000 } });
  });

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  async function tryOut(operationId: string, fill: (operation: ReturnType<Page['locator']>) => Promise<void>): Promise<string> {
    const operation = page.locator(`[id$="-${operationId}"]`).first();
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('.try-out__btn').click();
    await fill(operation);
    await operation.locator('.execute').click();
    const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    return (await status.innerText()).trim();
  }

  it('authorizes, checks access and creates an entitlement through "Try it out"', async () => {
    await page.goto(`${baseUrl}/docs`);
    await page.locator('.swagger-ui .info .title').waitFor({ timeout: 30_000 });

    await page.locator('.auth-wrapper .authorize').click();
    const apiKeyForm = page.locator('.modal-ux .auth-container').filter({ hasText: 'api_key' }).first();
    await apiKeyForm.locator('input').fill(tenant.testKey);
    await apiKeyForm.locator('button.authorize').click();
    await page.locator('.modal-ux .btn-done, .modal-ux button.close-modal').first().click();

    const createStatus = await tryOut('Entitlements_create', async (operation) => {
      await operation.locator('textarea.body-param__text').fill(
        JSON.stringify({ store_customer_id: 'browser_customer', product_id: product.id, metadata: { via: 'swagger-ui' } }),
      );
    });
    expect(createStatus).toBe('201');

    const checkStatus = await tryOut('Entitlements_check', async (operation) => {
      await operation.locator('tr[data-param-name="store_customer_id"] input').fill('browser_customer');
      await operation.locator('tr[data-param-name="product_id"] input').fill(product.id);
    });
    const checkOperation = page.locator('[id$="-Entitlements_check"]').first();
    const body = await checkOperation.locator('.live-responses-table tr.response .response-col_description pre').first().innerText();
    expect({ checkStatus, body }).toMatchObject({ checkStatus: '200' });
    expect(JSON.parse(body).data.entitled).toBe(true);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'swagger-ui-check.png'), fullPage: false });
  });
});
