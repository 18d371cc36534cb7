import * as path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { DataSource } from 'typeorm';
import { UsageRepository } from '../../src/billing/usage.repository';
import { UsageStatementsRepository } from '../../src/billing/usage-statements.repository';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { DownloadEntity } from '../../src/files/download.entity';
import { generateId } from '../../src/ids/id';
import { ARTIFACTS, DashboardHarness, DashboardMerchant, describeWithBrowser, horizontalOverflow, openPage, PASSWORD, PHONE, signIn, startDashboard } from '../support/dashboard-browser';
import { verifyWebhook, WebhookReceiver } from '../support/webhook-receiver';

/**
 * A new merchant's day in the dashboard, in a real browser: set a password, sign in, create a key
 * and use it, create a product and upload its file, build a bundle and grant it, check and revoke
 * access, refund one line item of an order, add a webhook endpoint and send it a test event; the
 * onboarding checklist ticks itself along the way. Also: two tabs in two modes, sign-out, CSRF.
 */
describeWithBrowser('dashboard flows in a browser', () => {
  let harness: DashboardHarness;
  let merchant: DashboardMerchant;
  let page: Page;
  /** A key with every scope made by the test for its own checks (created after the UI's key). */
  let key = '';
  const receiver = { current: null as WebhookReceiver | null };

  beforeAll(async () => {
    harness = await startDashboard();
    merchant = await harness.createMerchant({ name: 'Ada Books', withKeys: false, setPassword: false });
    // Three days of downloads, so the Overview's charts have bars to draw.
    const manager = harness.testApp.app.get(DataSource).manager;
    for (const daysAgo of [0, 1, 3]) {
      await manager.insert(DownloadEntity, {
        id: generateId('dl'),
        merchant_id: merchant.merchantId,
        mode: 'test',
        file_id: generateId('file'),
        entitlement_id: generateId('ent'),
        customer_id: generateId('cus'),
        bytes: (daysAgo + 1) * 3 * 1048576,
        downloaded_at: new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000),
      });
    }
    receiver.current = await WebhookReceiver.start();
    page = await harness.newPage();
  });

  afterAll(async () => {
    await receiver.current?.close();
    await harness?.close();
  });

  const check = async (productId: string, storeCustomerId: string) => {
    const answer = await harness.api<{ entitled: boolean }>(key, 'GET', `/v1/entitlements/check?store_customer_id=${storeCustomerId}&product_id=${productId}`);
    expect(answer.status).toBe(200);
    return answer.body.data.entitled;
  };
  const productNamed = async (name: string) => {
    const found = await harness.api<Array<{ id: string; name: string }>>(key, 'GET', `/v1/products?search=${encodeURIComponent(name)}`);
    const product = found.body.data.find((candidate) => candidate.name === name);
    if (!product) throw new Error(`No product named ${name}`);
    return product.id;
  };
  const step = (id: string) => page.locator(`[data-step="${id}"]`);

  it('sets a password through the setup link, signs in and sees a new merchant’s Overview in test mode', async () => {
    await page.goto(merchant.setupUrl ?? '');
    await page.getByLabel('New password (at least 12 characters)').fill(PASSWORD);
    await page.getByLabel('The same password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText(`Password set for ${merchant.email}. Sign in now.`).waitFor();
    await page.getByLabel('Email').fill(merchant.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/test');
    await page.getByRole('note').filter({ hasText: 'Test mode' }).waitFor();
    await page.getByText('Ada Books').first().waitFor();
    await page.getByText('0 of 6 done').waitFor();
    // Days without downloads draw no bar; three days had some.
    await page.getByTestId('downloads-chart').locator('.chart-bar[height]:not([height="0"])').first().waitFor();
    expect(await page.getByTestId('downloads-chart').locator('.chart-bar:not([height="0"])').count()).toBe(3);
    expect(await page.getByTestId('bandwidth-chart').locator('.chart-bar:not([height="0"])').count()).toBe(3);
  });

  it('shows the Overview’s two charts whole below their titles at 390 px, and scrolls to them', async () => {
    const phone = await harness.newPage(PHONE);
    await phone.goto(`${harness.baseUrl}/dashboard/test`);
    for (const testId of ['downloads-chart', 'bandwidth-chart']) {
      const figure = phone.getByTestId(testId);
      const chart = figure.locator('svg[role="img"]');
      await chart.locator('.chart-bar:not([height="0"])').first().waitFor();
      await chart.scrollIntoViewIfNeeded();
      const [caption, drawn, box] = [await figure.locator('figcaption').boundingBox(), await chart.boundingBox(), await figure.boundingBox()];
      if (!caption || !drawn || !box) throw new Error(`${testId} is not drawn`);
      const viewport = phone.viewportSize() ?? PHONE;
      expect({ testId, belowTitle: drawn.y >= caption.y + caption.height - 1, insideFigure: drawn.y + drawn.height <= box.y + box.height + 1, wholeWidth: drawn.width <= viewport.width, inView: drawn.y >= 0 && drawn.y + drawn.height <= viewport.height }).toEqual({
        testId,
        belowTitle: true,
        insideFigure: true,
        wholeWidth: true,
        inView: true,
      });
    }
    // Nothing past the last chart is cut off: the page's height reaches below it.
    const pageBottom = await phone.evaluate(() => document.documentElement.scrollHeight);
    const lastChart = await phone.evaluate(() => {
      const svg = document.querySelector('[data-testid="bandwidth-chart"] svg[role="img"]');
      return svg ? svg.getBoundingClientRect().bottom + window.scrollY : Number.POSITIVE_INFINITY;
    });
    expect(pageBottom).toBeGreaterThanOrEqual(lastChart);
    expect(await horizontalOverflow(phone)).toBe(0);
    await phone.screenshot({ path: path.join(ARTIFACTS, 'dashboard-overview-phone.png'), fullPage: true });
    await phone.close();
  });

  it('creates a key with two scopes that works in its scopes only (and ticks “key”)', async () => {
    await openPage(page, 'Settings · API keys', 'API keys');
    await page.getByLabel('Name').fill('browser key');
    await page.getByRole('checkbox', { name: /products:read/ }).check();
    await page.getByRole('checkbox', { name: /customers:read/ }).check();
    await page.getByRole('button', { name: 'Create key' }).dblclick();
    const created = (await page.getByTestId('new-key').textContent())?.trim() ?? '';
    expect(created).toMatch(/^eh_test_/);
    expect((await harness.api(created, 'GET', '/v1/products')).status).toBe(200);
    expect((await harness.api(created, 'GET', '/v1/events')).status).toBe(403);
    // The double click made one key.
    await page.getByRole('rowheader', { name: /browser key/ }).waitFor();
    expect(await page.getByRole('rowheader', { name: /browser key/ }).count()).toBe(1);
    key = await harness.testApp.createKey(merchant.merchantId, 'test', ['*']);
  });

  it('creates a product and uploads its file from the browser (ticks “product” and “file”)', async () => {
    await openPage(page, 'Products');
    await page.getByRole('link', { name: 'New product' }).click();
    await page.getByLabel('Name').fill('Browser ebook');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByRole('heading', { level: 1, name: /Browser ebook/ }).waitFor();
    await page.getByLabel('Upload a file to Browser ebook').setInputFiles({ name: 'chapter-one.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 browser upload') });
    await page.getByRole('rowheader', { name: 'chapter-one.pdf' }).waitFor();
    await page.getByRole('row', { name: /chapter-one\.pdf.*Uploaded/ }).waitFor();
    const files = await harness.api<Array<{ file_name: string; upload_status: string; product_id: string | null }>>(key, 'GET', '/v1/files?limit=100');
    expect(files.body.data.find((file) => file.file_name === 'chapter-one.pdf')).toMatchObject({ upload_status: 'CONFIRMED', product_id: await productNamed('Browser ebook') });
    await openPage(page, 'Overview');
    await page.getByText('3 of 6 done').waitFor();
    for (const done of ['product', 'file', 'key']) expect(await step(done).getAttribute('class')).toBe('done');
    expect(await step('grant').getAttribute('class')).toBe('');
  });

  it('builds a bundle from the UI and grants it: the check of a bundled product turns true (ticks “grant”)', async () => {
    expect((await harness.api(key, 'POST', '/v1/products', { name: 'Chapter A', entitlement_type: 'permanent' })).status).toBe(201);
    await openPage(page, 'Products');
    await page.getByRole('link', { name: 'New product' }).click();
    await page.getByLabel('Name').fill('Complete bundle');
    await page.getByText('Store ids, variants, bundle contents and metadata').click();
    await page.getByLabel('Store product id').fill('sku_bundle');
    const contents = page.getByRole('combobox', { name: 'Bundle contents' });
    await contents.fill('Chapter');
    await page.getByRole('option', { name: /Chapter A/ }).click();
    await contents.fill('Browser eb');
    await page.getByRole('option', { name: /Browser ebook/ }).click();
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByRole('heading', { level: 1, name: /Complete bundle/ }).waitFor();
    await page.getByRole('link', { name: 'Chapter A' }).waitFor();

    const chapter = await productNamed('Chapter A');
    expect(await check(chapter, 'browser-customer')).toBe(false);
    await page.getByRole('link', { name: 'Grant to a customer' }).click();
    await page.getByLabel('Customer (store customer id)').fill('browser-customer');
    expect(await page.getByRole('combobox', { name: 'Product' }).inputValue()).toBe('Complete bundle');
    await page.getByRole('button', { name: 'Grant' }).click();
    await page.getByRole('status').filter({ hasText: 'Granted.' }).waitFor();
    expect(await check(chapter, 'browser-customer')).toBe(true);
    expect(await check(await productNamed('Browser ebook'), 'browser-customer')).toBe(true);
  });

  it('checks access from the dashboard, then revokes after confirming: the check turns false (ticks “check”)', async () => {
    const bundle = await productNamed('Complete bundle');
    await openPage(page, 'Entitlements');
    await page.getByText('Check access').first().click();
    const form = page.getByRole('form', { name: 'Check access' });
    await form.getByLabel('Store customer id').fill('browser-customer');
    await form.getByRole('combobox', { name: 'Product to check' }).fill('Complete');
    await page.getByRole('option', { name: /Complete bundle/ }).click();
    await form.getByRole('button', { name: 'Check' }).click();
    await page.getByRole('status').filter({ hasText: 'Yes: browser-customer may use Complete bundle' }).waitFor();

    await page.getByRole('row', { name: /Complete bundle/ }).getByRole('link', { name: /^Entitlement ent_/ }).click();
    await page.getByRole('heading', { level: 2, name: 'History' }).waitFor();
    await page.getByRole('link', { name: 'entitlement.created' }).waitFor();
    await page.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason').fill('refunded by hand');
    await dialog.getByRole('button', { name: 'Revoke access' }).click();
    await page.getByText('Revoked', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'entitlement.revoked' }).waitFor();
    expect(await check(bundle, 'browser-customer')).toBe(false);
    // A revoked entitlement offers no action any more.
    expect(await page.getByRole('button', { name: /^(Suspend|Reactivate|Revoke)$/ }).count()).toBe(0);
  });

  it('refunds one line item of an order: its access ends, the other line item keeps its own', async () => {
    const ebook = await productNamed('Browser ebook');
    const chapter = await productNamed('Chapter A');
    const order = await harness.api(key, 'POST', '/v1/orders', {
      store_order_id: 'browser_order',
      store_customer_id: 'browser-buyer',
      line_items: [
        { store_line_item_id: 'li_1', product_id: ebook },
        { store_line_item_id: 'li_2', product_id: chapter },
      ],
    });
    expect(order.status).toBe(201);
    await openPage(page, 'Orders');
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('browser_order');
    await page.getByRole('link', { name: 'browser_order' }).click();
    await page.getByRole('heading', { level: 1, name: /Order browser_order/ }).waitFor();
    await page.getByRole('button', { name: 'Refund line item li_2' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Refund line item' }).click();
    await page.getByRole('heading', { level: 1, name: /Partially refunded/ }).waitFor();
    expect(await check(chapter, 'browser-buyer')).toBe(false);
    expect(await check(ebook, 'browser-buyer')).toBe(true);
  });

  it('adds a webhook endpoint, sends it a signed test event and lists the attempt with its response code (ticks “webhook”)', async () => {
    const hooks = receiver.current as WebhookReceiver;
    await openPage(page, 'Webhooks');
    await page.getByRole('link', { name: 'Add endpoint' }).first().click();
    await page.getByLabel('Endpoint URL').fill(hooks.url('/browser'));
    await page.getByLabel('Description').fill('Browser test');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('new-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('link', { name: 'Done: open the endpoint' }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').filter({ hasText: 'Test event delivered: HTTP 200' }).waitFor();
    await page.getByRole('row', { name: /webhook_endpoint\.test.*HTTP 200/ }).waitFor();
    const received = hooks.at('/browser');
    expect(received.length).toBeGreaterThanOrEqual(1);
    expect(verifyWebhook(secret, received[received.length - 1])).toMatchObject({ type: 'webhook_endpoint.test' });
  });

  it('ticks every onboarding step by itself, then leaves the Overview', async () => {
    await openPage(page, 'Overview');
    await page.getByRole('heading', { name: 'Plan: Growth' }).waitFor();
    // The counts behind the steps are asked again as the Overview opens; once they answer, the checklist goes.
    await page.getByRole('heading', { name: 'Get started' }).waitFor({ state: 'detached' });
    await page.screenshot({ path: path.join(ARTIFACTS, 'dashboard-overview-after-onboarding.png') });
  });

  it('shows Billing: the month so far against the plan, the charge to date, past statements and their CSV', async () => {
    // This month's test-mode bandwidth and a closed month's statement, through billing's own repositories.
    const gib = 2 ** 30;
    const tenant = { merchantId: merchant.merchantId, mode: 'test' as const };
    const unitOfWork = harness.testApp.app.get(UnitOfWork);
    const usage = harness.testApp.app.get(UsageRepository);
    await unitOfWork.run((tx) => usage.chargeBandwidth(tx, tenant, { month: new Date().toISOString().slice(0, 7), bytes: 13.25 * gib, includedBytes: 10 * gib, hardCapBytes: null }));
    const statements = harness.testApp.app.get(UsageStatementsRepository);
    const statementId = generateId('stmt');
    await unitOfWork.run((tx) =>
      statements.insertNew(tx, [
        { id: statementId, merchant_id: tenant.merchantId, mode: 'test', month: '2026-01', plan: 'growth', included_bandwidth_bytes: 10 * gib, bandwidth_bytes: 12 * gib, overage_bytes: 2 * gib, price_per_gib: 10, currency: 'usd', amount: 20, created_at: new Date(), next_report_at: null },
      ]),
    );
    await openPage(page, 'Billing');
    await page.getByRole('progressbar', { name: /Bandwidth: 100% of the included bandwidth used/ }).waitFor();
    expect(await page.getByTestId('overage-bytes').textContent()).toBe('3.3 GB');
    expect(await page.getByTestId('charge-to-date').textContent()).toBe('$0.33');
    await page.getByTestId('projected-charge').waitFor();
    await page.getByRole('row', { name: /2026-01.*\$0\.20/ }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('statements-test.csv');
    const csv = await new Promise<string>((resolve, reject) => {
      void download.createReadStream().then((stream) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        stream.on('error', reject);
      }, reject);
    });
    expect(csv.split('\r\n')[1]).toBe(`${statementId},2026-01,test,growth,${10 * gib},${12 * gib},${2 * gib},10,usd,20,${csv.split('\r\n')[1].split(',').at(-1)}`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'dashboard-billing.png') });
  });

  it('keeps two tabs in two modes apart: each acts in the mode of its address', async () => {
    const live = await harness.newPage();
    const modes = new Map<Page, Set<string>>([
      [page, new Set()],
      [live, new Set()],
    ]);
    for (const [tab, seen] of modes) tab.on('request', (request: Request) => request.url().includes('/v1/') && seen.add(request.headers()['eh-mode'] ?? 'none'));
    await live.goto(`${harness.baseUrl}/dashboard/live/products/new`);
    await page.goto(`${harness.baseUrl}/dashboard/test/products/new`);
    await live.getByRole('note').filter({ hasText: 'Test mode' }).waitFor({ state: 'detached' });
    await page.getByRole('note').filter({ hasText: 'Test mode' }).waitFor();
    await live.getByLabel('Name').fill('Live only');
    await live.getByRole('button', { name: 'Create product' }).click();
    await live.getByRole('heading', { level: 1, name: /Live only/ }).waitFor();
    await page.getByLabel('Name').fill('Test only');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByRole('heading', { level: 1, name: /Test only/ }).waitFor();
    const liveKey = await harness.testApp.createKey(merchant.merchantId, 'live', ['products:read']);
    const names = async (withKey: string) => (await harness.api<Array<{ name: string }>>(withKey, 'GET', '/v1/products?limit=100')).body.data.map((product) => product.name);
    expect(await names(liveKey)).toEqual(['Live only']);
    expect(await names(key)).toContain('Test only');
    expect(await names(key)).not.toContain('Live only');
    await live.getByRole('link', { name: 'Products' }).first().click();
    await live.getByRole('link', { name: 'Live only' }).waitFor();
    expect(await live.getByRole('link', { name: 'Test only' }).count()).toBe(0);
    expect([...(modes.get(page) ?? [])]).toEqual(['test']);
    expect([...(modes.get(live) ?? [])]).toEqual(['live']);
    await live.close();
  });

  it('invites a teammate from Settings → Team; removing them ends their session at once', async () => {
    await openPage(page, 'Settings · Team', 'Team');
    const email = `lin-${Date.now()}@example.com`;
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = (await page.getByTestId('setup-link').textContent())?.trim() ?? '';
    expect(link).toContain('/dashboard/setup#token=');
    // The teammate, in a browser of their own: sets a password through the link, signs in.
    const post = (route: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${harness.baseUrl}${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    expect((await post('/dashboard/api/setup', { token: new URL(link).hash.replace(/^#token=/, ''), password: PASSWORD })).status).toBe(200);
    const signedIn = await post('/dashboard/api/sign-in', { email, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0];
    const teammateSession = () => fetch(`${harness.baseUrl}/dashboard/api/session`, { headers: { Cookie: cookie } });
    expect((await teammateSession()).status).toBe(200);
    await page.reload();
    await page.getByRole('row', { name: new RegExp(`${email}.*Active`) }).waitFor();
    await page.getByRole('button', { name: `Remove ${email}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove from the team' }).click();
    await page.getByRole('row', { name: new RegExp(email) }).waitFor({ state: 'detached' });
    expect((await teammateSession()).status).toBe(401);
  });

  it('uploads from another address the service answers on (localhost, while PUBLIC_BASE_URL names 127.0.0.1)', async () => {
    const elsewhere = await harness.newPage();
    const otherOrigin = harness.baseUrl.replace('127.0.0.1', 'localhost');
    await signIn(elsewhere, otherOrigin, merchant.email, `/dashboard/test/products/${await productNamed('Browser ebook')}`);
    await elsewhere.getByLabel('Upload a file to Browser ebook').setInputFiles({ name: 'chapter-two.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 from another origin') });
    await elsewhere.getByRole('row', { name: /chapter-two\.pdf.*Uploaded/ }).waitFor();
    await elsewhere.close();
  });

  it('refuses a state-changing request that carries the cookie but not the CSRF token', async () => {
    const result = await page.evaluate(async () => {
      const response = await fetch('/v1/products', {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json', 'Eh-Mode': 'test' },
        body: JSON.stringify({ name: 'Forged', entitlement_type: 'permanent' }),
      });
      return { status: response.status, body: (await response.json()) as { error: { code: string } } };
    });
    expect(result).toMatchObject({ status: 403, body: { error: { code: 'CSRF_TOKEN_INVALID' } } });
  });

  it('signs out: nothing stays on screen, and the back button shows sign-in', async () => {
    await openPage(page, 'Products');
    await page.getByRole('link', { name: 'Browser ebook' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to your dashboard' }).waitFor();
    expect(await page.getByText('Browser ebook').count()).toBe(0);
    await page.goBack();
    await page.getByRole('heading', { name: 'Sign in to your dashboard' }).waitFor();
    expect(await page.getByText('Browser ebook').count()).toBe(0);
    await signIn(page, harness.baseUrl, merchant.email);
  });
});
