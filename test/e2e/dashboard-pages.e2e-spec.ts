import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import {
  accessibilityProblems,
  DashboardHarness,
  DashboardMerchant,
  describeWithBrowser,
  horizontalOverflow,
  LAPTOP,
  PHONE,
  SCREENSHOTS,
  settled,
  signIn,
  startDashboard,
} from '../support/dashboard-browser';
import { WebhookReceiver } from '../support/webhook-receiver';

/** What the first page may load: its JavaScript, compressed as served (issue 24). */
const FIRST_PAGE_SCRIPT_BUDGET = 150 * 1024;

/**
 * Every page of the dashboard, with data in it: no serious or critical axe violation on a laptop
 * and on a 390 px phone, no sideways scrolling on the phone, screenshots for the guide, and the
 * first page's compressed JavaScript within its budget.
 */
describeWithBrowser('every dashboard page in a browser', () => {
  let harness: DashboardHarness;
  let merchant: DashboardMerchant;
  let receiver: WebhookReceiver;
  let page: Page;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    harness = await startDashboard();
    receiver = await WebhookReceiver.start();
    // A readable address for the screenshots, unique per run (the run's database is shared).
    merchant = await harness.createMerchant({ name: 'Northwind Press', email: `ada.${Date.now().toString(36)}@northwind.example` });
    const post = async <T>(route: string, body: unknown, method = 'POST') => {
      const answer = await harness.api<T>(merchant.testKey, method, route, body);
      if (answer.status >= 300) throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body.data;
    };
    // The endpoint first, so the events below are delivered to it and it has attempts to list.
    const endpoint = await post<{ id: string }>('/v1/webhook-endpoints', { url: receiver.url('/pages'), enabled_events: ['*'], description: 'Fulfilment server' });
    const ebook = await post<{ id: string }>('/v1/products', { name: 'The Field Guide (ebook)', entitlement_type: 'permanent', store_product_id: 'sku_field_guide', description: 'PDF and EPUB editions' });
    const course = await post<{ id: string }>('/v1/products', {
      name: 'Course access',
      entitlement_type: 'time_limited',
      access_duration_days: 365,
      fulfillment_config: { delivery_method: 'URL', access_url: 'https://course.example.com/enroll' },
    });
    const plan = await post<{ id: string }>('/v1/products', { name: 'Pro plan', entitlement_type: 'subscription_linked', fulfillment_config: { delivery_method: 'INSTRUCTIONS', access_instructions: 'Sign in at example.com' } });
    const bundle = await post<{ id: string }>('/v1/products', { name: 'Starter bundle', entitlement_type: 'permanent', included_product_ids: [ebook.id, course.id] });
    const upload = await post<{ file_id: string; upload_url: string; upload_headers: Record<string, string> }>('/v1/files/upload-url', { file_name: 'field-guide.pdf', file_size: 24, mime_type: 'application/pdf', product_id: ebook.id });
    await fetch(upload.upload_url, { method: 'PUT', headers: upload.upload_headers, body: '%PDF-1.4 the field guide' });
    await post(`/v1/files/${upload.file_id}/confirm`, {});
    const order = await post<{ id: string; customer_id: string; line_items: Array<{ entitlement_id: string }> }>('/v1/orders', {
      store_order_id: 'order_1001',
      store_customer_id: 'cust_8841',
      line_items: [
        { store_line_item_id: 'li_1', product_id: ebook.id },
        { store_line_item_id: 'li_2', product_id: bundle.id },
      ],
    });
    const subscription = await post<{ id: string }>('/v1/subscriptions/store/sub_3001', { store_customer_id: 'cust_8841', product_id: plan.id, status: 'active', current_period_end: new Date(Date.now() + 20 * 86_400_000).toISOString() }, 'PUT');
    await post('/v1/entitlements', { store_customer_id: 'cust_2002', product_id: course.id, metadata: { note: 'gift' } });
    await receiver.until(() => receiver.at('/pages').length >= 3);
    const events = await harness.api<Array<{ id: string; type: string }>>(merchant.testKey, 'GET', '/v1/events?type=order.created');
    Object.assign(ids, {
      product: ebook.id,
      bundle: bundle.id,
      customer: order.customer_id,
      entitlement: order.line_items[0].entitlement_id,
      order: order.id,
      subscription: subscription.id,
      endpoint: endpoint.id,
      event: events.body.data[0].id,
    });
    page = await harness.newPage();
    await signIn(page, harness.baseUrl, merchant.email);
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await harness?.close();
  });

  const pages = (): Array<[string, string]> => [
    ['overview', ''],
    ['products', 'products'],
    ['product', `products/${ids.product}`],
    ['new-product', 'products/new'],
    ['customers', 'customers'],
    ['customer', `customers/${ids.customer}`],
    ['entitlements', 'entitlements'],
    ['entitlement', `entitlements/${ids.entitlement}`],
    ['grant', 'entitlements/new'],
    ['orders', 'orders'],
    ['order', `orders/${ids.order}`],
    ['subscriptions', 'subscriptions'],
    ['subscription', `subscriptions/${ids.subscription}`],
    ['files', 'files'],
    ['webhooks', 'webhooks'],
    ['webhook-endpoint', `webhooks/${ids.endpoint}`],
    ['new-webhook-endpoint', 'webhooks/new'],
    ['events', 'events'],
    ['event', `events/${ids.event}`],
    ['audit-log', 'audit-log'],
    ['api-keys', 'settings/api-keys'],
    ['team', 'settings/team'],
    ['portal-settings', 'settings/portal'],
  ];
  const visit = async (address: string) => {
    await page.goto(`${harness.baseUrl}/dashboard/test${address ? `/${address}` : ''}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await settled(page);
  };

  it('passes axe on every page on a laptop (no serious or critical violations), in test and live mode', async () => {
    await page.setViewportSize(LAPTOP);
    const problems: string[] = [];
    for (const [name, address] of pages()) {
      await visit(address);
      problems.push(...(await accessibilityProblems(page, name)));
    }
    await page.goto(`${harness.baseUrl}/dashboard/live/products`);
    await settled(page);
    problems.push(...(await accessibilityProblems(page, 'live products')));
    expect(problems).toEqual([]);
  }, 300_000);

  it('fits a 390 px phone on every page: no sideways scrolling; axe passes on the phone layouts too', async () => {
    await page.setViewportSize(PHONE);
    const overflowing: string[] = [];
    const problems: string[] = [];
    // One page of each kind is enough for axe here: the phone layout is the laptop's, restyled.
    const scanned = new Set(['overview', 'products', 'order', 'grant', 'webhook-endpoint']);
    for (const [name, address] of pages()) {
      await visit(address);
      const overflow = await horizontalOverflow(page);
      if (overflow > 0) overflowing.push(`${name}: ${overflow}px`);
      if (scanned.has(name)) problems.push(...(await accessibilityProblems(page, `${name} (phone)`)));
    }
    // The page list opens from the Menu button on a phone.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    expect(overflowing).toEqual([]);
    expect(problems).toEqual([]);
  }, 300_000);

  it('takes the guide’s screenshots (laptop and phone)', async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const shots: Array<[string, string, { width: number; height: number }]> = [
      ['overview', '', LAPTOP],
      ['products', 'products', LAPTOP],
      ['product', `products/${ids.product}`, LAPTOP],
      ['customer', `customers/${ids.customer}`, LAPTOP],
      ['order', `orders/${ids.order}`, LAPTOP],
      ['webhook-endpoint', `webhooks/${ids.endpoint}`, LAPTOP],
      ['event', `events/${ids.event}`, LAPTOP],
      ['overview-phone', '', PHONE],
      ['product-phone', `products/${ids.product}`, PHONE],
      ['order-phone', `orders/${ids.order}`, PHONE],
    ];
    for (const [name, address, viewport] of shots) {
      await page.setViewportSize(viewport);
      await visit(address);
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
    }
  }, 120_000);

  it('loads the first page with at most 150 kB of compressed JavaScript, served compressed with immutable caching', async () => {
    // As a first visit: no session, nothing cached (this is the suite's last test).
    await harness.context.clearCookies();
    const first = await harness.newPage();
    const devtools = await harness.context.newCDPSession(first);
    await devtools.send('Network.clearBrowserCache');
    await devtools.send('Network.setCacheDisabled', { cacheDisabled: true });
    const scripts: Array<{ url: string; bytes: number; encoding: string; cache: string }> = [];
    first.on('requestfinished', async (request) => {
      if (request.resourceType() !== 'script') return;
      const response = await request.response();
      const sizes = await request.sizes();
      scripts.push({ url: request.url(), bytes: sizes.responseBodySize, encoding: (await response?.headerValue('content-encoding')) ?? 'none', cache: (await response?.headerValue('cache-control')) ?? '' });
    });
    // The sign-in page, then the Overview the merchant lands on (charts included).
    await first.goto(`${harness.baseUrl}/dashboard/test`);
    await first.getByLabel('Email').fill(merchant.email);
    await first.getByLabel('Password').fill('a long enough password');
    await first.getByRole('button', { name: 'Sign in' }).click();
    await first.getByRole('img', { name: 'Downloads per day, last 30 days' }).waitFor();
    await first.waitForLoadState('networkidle');
    const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
    console.log(`First page (sign-in, then Overview with charts): ${scripts.length} scripts, ${(total / 1024).toFixed(1)} kB compressed`);
    expect(scripts.every((script) => script.encoding === 'br' || script.encoding === 'gzip')).toBe(true);
    expect(scripts.every((script) => script.cache.includes('immutable'))).toBe(true);
    expect(total).toBeLessThanOrEqual(FIRST_PAGE_SCRIPT_BUDGET);
    await first.close();
  });
});
