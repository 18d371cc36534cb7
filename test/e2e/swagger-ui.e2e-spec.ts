import { existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { Browser, chromium, Locator, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { insertProduct } from '../support/entitlement-fixtures';
import { freePort } from '../support/free-port';
import { documentOperations } from '../support/openapi-operations';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

/**
 * Swagger UI as shipped, in a real browser (Debian's chromium, driven by playwright-core): a
 * fresh merchant authorizes and runs "Try it out" on every POST, PATCH and PUT of the document,
 * in an order where each creates what the next refers to, and sends each operation's shipped
 * example untouched. The only thing typed in is the path ids, which no example can know ahead:
 * they come from the responses of the steps before (the id of the product just created, say).
 * Bodies name other objects by store id (`store_product_id: "sku_ebook_42"` is the product
 * example's own), so the examples chain without ids. What can't come from an example is done
 * beside the browser and said so: the bytes of an upload are PUT to its signed URL, and
 * `activate` needs a pending entitlement, which the grant example (active) doesn't make.
 *
 * Every status must be 2xx: a 4xx here is an example that doesn't work as shipped. A write route
 * added without a step here fails the coverage check at the end. `.ci/run` installs chromium;
 * elsewhere the suite is skipped without it.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(__dirname, '..', 'artifacts');
const available = existsSync(CHROMIUM);
if (!available && process.env.CI === 'true') throw new Error(`CI needs chromium at ${CHROMIUM} (.ci/run installs it)`);
const describeWithBrowser = available ? describe : describe.skip;
if (!available) console.warn(`Swagger UI browser test skipped: no chromium at ${CHROMIUM}`);

interface Executed {
  status: number;
  body: { data?: Record<string, unknown> & { id?: string } };
}

describeWithBrowser('Swagger UI in a browser', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let browser: Browser;
  let page: Page;
  let baseUrl: string;
  const executed: string[] = [];

  beforeAll(async () => {
    // Signed local-storage URLs point at PUBLIC_BASE_URL: this server, so the upload step can PUT.
    const port = await freePort();
    testApp = await createTestApp({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    tenant = await testApp.createTenant();
    await testApp.app.listen(port, '127.0.0.1');
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

  /** The operation's block, found by method and path (operation ids are not this test's concern). */
  function operationBlock(method: string, template: string): Locator {
    return page.locator(`.opblock.opblock-${method}`).filter({ has: page.locator(`.opblock-summary-path[data-path="${template}"]`) }).first();
  }

  /** Expands the operation, presses "Try it out", fills only the path ids, executes, reads the answer. */
  async function tryOut(method: string, template: string, pathIds: Record<string, string> = {}): Promise<Executed> {
    const block = operationBlock(method, template);
    await block.locator('.opblock-summary').first().click();
    await block.locator('.try-out__btn').click();
    for (const [name, value] of Object.entries(pathIds)) await block.locator(`tr[data-param-name="${name}"] input`).fill(value);
    await block.locator('.execute').click();
    const row = block.locator('.live-responses-table tr.response').first();
    await row.locator('.response-col_status').waitFor({ timeout: 15_000 });
    const status = Number((await row.locator('.response-col_status').innerText()).trim());
    const text = await row.locator('.response-col_description pre').first().innerText();
    executed.push(`${method.toUpperCase()} ${template}`);
    const body = JSON.parse(text) as Executed['body'];
    // The status with the body, so a failure shows the error the example caused.
    expect({ operation: `${method.toUpperCase()} ${template}`, status, error: status >= 400 ? body : undefined }).toEqual({
      operation: `${method.toUpperCase()} ${template}`,
      status: expect.any(Number),
      error: undefined,
    });
    // Collapse it again so the next block's rows are the only live responses in view.
    await block.locator('.opblock-summary').first().click();
    return { status, body };
  }

  async function authorize(): Promise<void> {
    await page.locator('.auth-wrapper .authorize').click();
    for (const [scheme, secret] of [
      ['api_key', tenant.testKey],
      ['admin_token', TEST_ADMIN_TOKEN],
    ]) {
      const form = page.locator('.modal-ux .auth-container').filter({ hasText: scheme }).first();
      await form.locator('input').fill(secret);
      await form.locator('button.authorize').click();
    }
    await page.locator('.modal-ux button.close-modal').first().click();
  }

  it('executes every write operation with its shipped example, in an order that creates what each refers to', async () => {
    await page.goto(`${baseUrl}/docs`);
    await page.locator('.swagger-ui .info .title').waitFor({ timeout: 30_000 });
    await authorize();

    // Admin API.
    const merchant = await tryOut('post', '/admin/v1/merchants');
    const merchantId = merchant.body.data?.id as string;
    await tryOut('patch', '/admin/v1/merchants/{merchant_id}', { merchant_id: merchantId });
    await tryOut('post', '/admin/v1/merchants/{merchant_id}/api-keys', { merchant_id: merchantId });
    // Dashboard emails are unique across merchants, and other suites of this run execute the same
    // example (the fuzzing suite seeds from the document): the example's email is freed first.
    await testApp.app.get(DataSource).query(`DELETE FROM dashboard_users WHERE email = 'ada@example.com'`);
    await tryOut('post', '/admin/v1/merchants/{merchant_id}/users', { merchant_id: merchantId });

    // Products, then a grant that names the product by the example's store id.
    const product = await tryOut('post', '/v1/products');
    const productId = product.body.data?.id as string;
    await tryOut('patch', '/v1/products/{product_id}', { product_id: productId });
    const entitlement = await tryOut('post', '/v1/entitlements');
    const entitlementId = entitlement.body.data?.id as string;
    expect(entitlement.body.data?.product_id).toBe(productId);
    await tryOut('patch', '/v1/entitlements/{entitlement_id}', { entitlement_id: entitlementId });
    await tryOut('post', '/v1/entitlements/{entitlement_id}/suspend', { entitlement_id: entitlementId });
    await tryOut('post', '/v1/entitlements/{entitlement_id}/reactivate', { entitlement_id: entitlementId });
    await tryOut('post', '/v1/entitlements/{entitlement_id}/usage', { entitlement_id: entitlementId });
    await tryOut('post', '/v1/entitlements/{entitlement_id}/token', { entitlement_id: entitlementId });
    // activate needs a pending entitlement: made beside the browser, since the grant example is active.
    const pending = await testApp.http
      .post('/v1/entitlements')
      .set(bearer(tenant.testKey))
      .send({ store_customer_id: 'store_cust_1002', store_product_id: 'sku_ebook_42', status: 'pending' })
      .expect(201);
    await tryOut('post', '/v1/entitlements/{entitlement_id}/activate', { entitlement_id: pending.body.data.id });
    await tryOut('post', '/v1/entitlements/{entitlement_id}/revoke', { entitlement_id: entitlementId });

    // Files: the bytes go to the signed URL (no example can carry them), then confirm.
    const upload = await tryOut('post', '/v1/files/upload-url');
    const { upload_url: uploadUrl, upload_headers: uploadHeaders, file_id: fileId } = upload.body.data as {
      upload_url: string;
      upload_headers: Record<string, string>;
      file_id: string;
    };
    const declaredSize = (upload.body.data?.file as { file_size: number }).file_size;
    const put = await fetch(uploadUrl, { method: 'PUT', headers: uploadHeaders, body: Buffer.alloc(declaredSize, 1) });
    expect(put.status).toBeLessThan(300);
    await tryOut('post', '/v1/files/{file_id}/confirm', { file_id: fileId });

    // Webhooks and events.
    const endpoint = await tryOut('post', '/v1/webhook-endpoints');
    const endpointId = endpoint.body.data?.id as string;
    await tryOut('patch', '/v1/webhook-endpoints/{endpoint_id}', { endpoint_id: endpointId });
    await tryOut('post', '/v1/webhook-endpoints/{endpoint_id}/rotate-secret', { endpoint_id: endpointId });
    // The test send really sends: the endpoint is pointed at loopback first (port 9, where nothing
    // listens), so it never leaves the machine; a failed send is still a 200 with the attempt.
    await testApp.http.patch(`/v1/webhook-endpoints/${endpointId}`).set(bearer(tenant.testKey)).send({ url: 'http://127.0.0.1:9/swagger-walk' }).expect(200);
    await tryOut('post', '/v1/webhook-endpoints/{endpoint_id}/test', { endpoint_id: endpointId });
    const events = await testApp.http.get('/v1/events?limit=1').set(bearer(tenant.testKey)).expect(200);
    await tryOut('post', '/v1/events/{event_id}/redeliver', { event_id: events.body.data[0].id });

    // Sources of entitlements. The order example names the product above by its store id.
    const order = await tryOut('post', '/v1/orders');
    await tryOut('post', '/v1/orders/{order_id}/refund', { order_id: order.body.data?.id as string });
    // The subscription example names a subscription_linked product by store id: created first.
    await testApp.http
      .post('/v1/products')
      .set(bearer(tenant.testKey))
      .send({ name: 'Pro (monthly)', store_product_id: 'sku_pro_monthly', entitlement_type: 'subscription_linked', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/pro' } })
      .expect(201);
    await tryOut('put', '/v1/subscriptions/store/{store_subscription_id}', { store_subscription_id: 'store_sub_1001' });
    await tryOut('post', '/v1/entitlement-imports');
    // Grant rules name products by our ids only, which no example can know ahead: the test gives
    // this tenant two products with the example's ids (the one place the document's ids are seeded).
    for (const id of ['prod_01jd8x3k2m4n5p6q7r8s9t0v1w', 'prod_01jd8x3k2m4n5p6q7r8s9t0v1x']) {
      await insertProduct(testApp, tenant.merchantId, 'test', { id });
    }
    const rule = await tryOut('post', '/v1/grant-rules');
    await tryOut('patch', '/v1/grant-rules/{rule_id}', { rule_id: rule.body.data?.id as string });

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'swagger-ui-try-it-out.png'), fullPage: false });

    // Every write operation of the document was executed above.
    const writes = documentOperations(testApp.app)
      .filter((operation) => ['post', 'patch', 'put'].includes(operation.method))
      .map((operation) => operation.key);
    expect(writes.filter((key) => !executed.includes(key))).toEqual([]);
  }, 180_000);

  it('the access check runs from its parameters and sees the revoke at once', async () => {
    const block = operationBlock('get', '/v1/entitlements/check');
    await block.locator('.opblock-summary').first().click();
    await block.locator('.try-out__btn').click();
    await block.locator('tr[data-param-name="store_customer_id"] input').fill('store_cust_1001');
    await block.locator('tr[data-param-name="store_product_id"] input').fill('sku_ebook_42');
    await block.locator('.execute').click();
    const row = block.locator('.live-responses-table tr.response').first();
    await row.locator('.response-col_status').waitFor({ timeout: 15_000 });
    expect((await row.locator('.response-col_status').innerText()).trim()).toBe('200');
    const body = JSON.parse(await row.locator('.response-col_description pre').first().innerText());
    // The example grant was revoked above: the check sees it at once.
    expect(body.data.entitled).toBe(false);
  }, 60_000);
});
