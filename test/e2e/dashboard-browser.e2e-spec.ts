import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { DashboardUsersService } from '../../src/dashboard/dashboard-users.service';
import { DownloadEntity } from '../../src/files/download.entity';
import { generateId } from '../../src/ids/id';
import { freePort } from '../support/free-port';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { CHROMIUM_EXECUTABLE, describeNeeding } from '../support/requirements';

/**
 * The dashboard in a real browser (Debian's chromium through playwright-core), on the built app
 * (the test setup builds it when missing or stale): sign in through a setup link, create a key and use it, grant and revoke,
 * upload a file, render the Overview charts, and scan every page with axe.
 */
const ARTIFACTS = path.join(__dirname, '..', 'artifacts');
const PASSWORD = 'a long enough password';
const PAGES = ['Overview', 'Products', 'Customers', 'Entitlements', 'Orders', 'Webhooks', 'Events', 'Settings → API keys'];

describeNeeding(['chromium'], 'dashboard in a browser', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let browser: Browser;
  let page: Page;
  let baseUrl: string;
  const email = `browser-${Date.now()}@example.com`;

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    testApp = await createTestApp({ PUBLIC_BASE_URL: baseUrl });
    tenant = await testApp.createTenant();
    // Three days of downloads, so the Overview charts have bars to draw.
    const manager = testApp.app.get(DataSource).manager;
    for (const daysAgo of [0, 1, 3]) {
      await manager.insert(DownloadEntity, {
        id: generateId('dl'),
        merchant_id: tenant.merchantId,
        mode: 'test',
        file_id: generateId('file'),
        entitlement_id: generateId('ent'),
        customer_id: generateId('cus'),
        bytes: (daysAgo + 1) * 3 * 1048576,
        downloaded_at: new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000),
      });
    }
    await testApp.app.listen(port, '127.0.0.1');
    browser = await chromium.launch({
      executablePath: CHROMIUM_EXECUTABLE,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    // axe needs a page of an explicit context.
    page = await (await browser.newContext({ viewport: { width: 1400, height: 1200 } })).newPage();
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  const openPage = async (label: string) => {
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: label, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: label }).waitFor();
  };

  const check = async (productId: string, storeCustomerId = 'browser-customer') => {
    const response = await fetch(`${baseUrl}/v1/entitlements/check?store_customer_id=${storeCustomerId}&product_id=${productId}`, { headers: bearer(tenant.testKey) });
    return ((await response.json()) as { data: { entitled: boolean } }).data.entitled;
  };

  it('sets a password through the setup link and signs in', async () => {
    const user = await testApp.app.get(DashboardUsersService).create(tenant.merchantId, email);
    await page.goto(user.setup_url);
    await page.getByLabel('New password (at least 12 characters)').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await expectTestModeVisible(page);
  });

  it('renders the Overview charts with data', async () => {
    // Days without downloads have empty bar groups; a drawn bar is a path.
    await page.getByTestId('downloads-chart').locator('.recharts-bar-rectangle path').first().waitFor();
    expect(await page.getByTestId('downloads-chart').locator('.recharts-bar-rectangle path').count()).toBeGreaterThanOrEqual(3);
    expect(await page.getByTestId('bandwidth-chart').locator('.recharts-bar-rectangle path').count()).toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: path.join(ARTIFACTS, 'dashboard-overview.png'), fullPage: true });
  });

  it('creates a key with two scopes that works in its scopes only', async () => {
    await openPage('Settings → API keys');
    await page.getByLabel('Name').fill('browser key');
    await page.getByLabel('products:read').check();
    await page.getByLabel('customers:read').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent())?.trim() ?? '';
    expect(key).toMatch(/^eh_test_/);
    expect((await fetch(`${baseUrl}/v1/products`, { headers: bearer(key) })).status).toBe(200);
    expect((await fetch(`${baseUrl}/v1/events`, { headers: bearer(key) })).status).toBe(403);
    await page.getByRole('cell', { name: 'browser key' }).waitFor();
  });

  it('creates a product and uploads a file to it from the browser', async () => {
    await openPage('Products');
    await page.getByLabel('Name').fill('Browser ebook');
    await page.getByRole('button', { name: 'Create product' }).click();
    const upload = page.getByLabel('Upload a file to Browser ebook');
    await upload.setInputFiles({ name: 'chapter-one.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 browser upload') });
    await page.getByText(/chapter-one\.pdf .*CONFIRMED/i).waitFor();
    const files = (await (await fetch(`${baseUrl}/v1/files?limit=100`, { headers: bearer(tenant.testKey) })).json()) as { data: Array<{ file_name: string; upload_status: string; product_id: string | null }> };
    const file = files.data.find((candidate) => candidate.file_name === 'chapter-one.pdf');
    expect(file).toMatchObject({ upload_status: 'CONFIRMED', product_id: expect.stringMatching(/^prod_/) });
    await page.screenshot({ path: path.join(ARTIFACTS, 'dashboard-products.png'), fullPage: true });
  });

  it('grants a product (the check turns true) and revokes it (false again)', async () => {
    const products = (await (await fetch(`${baseUrl}/v1/products`, { headers: bearer(tenant.testKey) })).json()) as { data: Array<{ id: string; name: string }> };
    const productId = products.data.find((product) => product.name === 'Browser ebook')?.id ?? '';
    expect(await check(productId)).toBe(false);
    await openPage('Entitlements');
    await page.getByLabel('Store customer id').first().fill('browser-customer');
    await page.getByRole('combobox', { name: 'Product' }).selectOption(productId);
    await page.getByRole('button', { name: 'Grant' }).click();
    await page.getByRole('cell', { name: 'manual' }).waitFor();
    expect(await check(productId)).toBe(true);
    await page.getByLabel('Reason (for revoke and suspend)').fill('refunded by hand');
    await page.getByRole('button', { name: /^revoke ent_/ }).click();
    await page.getByRole('cell', { name: 'revoked', exact: true }).waitFor();
    expect(await check(productId)).toBe(false);
  });

  it("shows a customer's orders and subscriptions, and refunds an order (its entitlement is revoked)", async () => {
    const products = (await (await fetch(`${baseUrl}/v1/products`, { headers: bearer(tenant.testKey) })).json()) as { data: Array<{ id: string; name: string }> };
    const productId = products.data.find((product) => product.name === 'Browser ebook')?.id ?? '';
    const post = (path: string, body: unknown, method = 'POST') =>
      fetch(`${baseUrl}${path}`, { method, headers: { ...bearer(tenant.testKey), 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(
      (await post('/v1/orders', { store_order_id: 'browser_order', store_customer_id: 'browser-buyer', line_items: [{ store_line_item_id: 'li_1', product_id: productId }] }))
        .status,
    ).toBe(201);
    const plan = (await (await post('/v1/products', { name: 'Browser plan', entitlement_type: 'subscription_linked', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/plan' } })).json()) as {
      data: { id: string };
    };
    expect((await post('/v1/subscriptions/store/browser_sub', { store_customer_id: 'browser-buyer', product_id: plan.data.id, status: 'active' }, 'PUT')).status).toBe(201);
    expect(await check(productId, 'browser-buyer')).toBe(true);

    await openPage('Orders');
    await page.getByRole('textbox', { name: 'Customer' }).fill('browser-buyer');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('cell', { name: 'browser_sub' }).waitFor();
    await page.getByRole('button', { name: 'Refund browser_order' }).click();
    await page.getByRole('cell', { name: 'refunded', exact: true }).waitFor();
    expect(await check(productId, 'browser-buyer')).toBe(false);
  });

  it('passes an accessibility scan on every page (no serious or critical violations)', async () => {
    const problems: string[] = [];
    for (const label of PAGES) {
      await openPage(label);
      await page.waitForLoadState('networkidle');
      const results = await new AxeBuilder({ page }).analyze();
      for (const violation of results.violations) {
        if (violation.impact === 'serious' || violation.impact === 'critical') problems.push(`${label}: ${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
    // Seven pages, each loaded and scanned: about 15 s on an idle machine, several times that on a busy one.
  }, 240_000);

  it('refuses a state-changing request that carries the cookie but not the CSRF token', async () => {
    const result = await page.evaluate(async () => {
      const response = await fetch('/v1/products', {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Forged', entitlement_type: 'permanent' }),
      });
      return { status: response.status, body: (await response.json()) as { error: { code: string } } };
    });
    expect(result).toMatchObject({ status: 403, body: { error: { code: 'CSRF_TOKEN_INVALID' } } });
  });
});

async function expectTestModeVisible(page: Page): Promise<void> {
  await page.getByRole('note').filter({ hasText: 'Test mode' }).waitFor();
  expect(await page.getByRole('button', { name: 'Test mode' }).getAttribute('aria-pressed')).toBe('true');
}
