import { readFileSync } from 'node:fs';
import { accessibilityProblems, DashboardHarness, DashboardMerchant, describeWithBrowser, LAPTOP, openPage, PHONE, settled, signIn, startDashboard } from '../support/dashboard-browser';

const PDF = 'application/pdf';
const INSTRUCTIONS = 'Run <b>setup.exe</b> & type <script>alert(1)</script> the key';

/**
 * The customer portal in Chromium (DESIGN §19, issue 33): a session made through the API, the
 * link opened, a file downloaded and its bytes compared, a URL product's link, an instructions
 * product's text (HTML shown as text), a device deactivated, a revoked entitlement without
 * delivery, the branding applied, at 1280 and 390 px, axe with no serious violation; a second use
 * of the link refused and another customer's ids 404 through the session.
 */
describeWithBrowser('customer portal in a browser', () => {
  let harness: DashboardHarness;
  let merchant: DashboardMerchant;
  const bytes = Buffer.from('%PDF-1.4 the portal book, byte for byte\n');

  beforeAll(async () => {
    harness = await startDashboard();
    merchant = await harness.createMerchant();
  });
  afterAll(() => harness?.close());

  async function api<T>(method: string, route: string, body?: unknown, expected = [200, 201]): Promise<T> {
    const response = await harness.api<T>(merchant.testKey, method, route, body);
    if (!expected.includes(response.status)) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data;
  }

  async function product(body: Record<string, unknown>): Promise<string> {
    return (await api<{ id: string }>('POST', '/v1/products', { entitlement_type: 'permanent', ...body })).id;
  }

  const grant = (storeCustomerId: string, productId: string) => api<{ id: string; customer_id: string }>('POST', '/v1/entitlements', { store_customer_id: storeCustomerId, product_id: productId });

  it('delivers every kind, downloads, deactivates, shows the branding, and refuses what it must', async () => {
    const buyer = `portal_buyer_${Date.now()}`;
    const bookId = await product({ name: 'The Field Guide (PDF)', description: 'Two hundred pages of sketches' });
    const upload = await api<{ file_id: string; upload_url: string }>('POST', '/v1/files/upload-url', { file_name: 'field-guide.pdf', file_size: bytes.length, mime_type: PDF, product_id: bookId });
    expect((await fetch(upload.upload_url, { method: 'PUT', headers: { 'Content-Type': PDF }, body: bytes })).status).toBe(200);
    await api('POST', `/v1/files/${upload.file_id}/confirm`);
    const courseId = await product({ name: 'Video course', fulfillment_config: { delivery_method: 'URL', access_url: 'https://course.example.com/enroll' } });
    const setupId = await product({ name: 'Setup guide', fulfillment_config: { delivery_method: 'INSTRUCTIONS', access_instructions: INSTRUCTIONS } });
    const appId = await product({ name: 'Desktop app', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/app' }, license: { activation_limit: 2 } });
    const refundedId = await product({ name: 'Refunded album', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/album' } });
    const book = await grant(buyer, bookId);
    await grant(buyer, courseId);
    await grant(buyer, setupId);
    const app = await grant(buyer, appId);
    const refunded = await grant(buyer, refundedId);
    await api('POST', `/v1/entitlements/${refunded.id}/revoke`, { reason: 'refunded' });
    const [license] = await api<Array<{ id: string; key: string }>>('GET', `/v1/license-keys?entitlement_id=${app.id}`);
    const activated = await fetch(`${harness.baseUrl}/v1/licenses/activate`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key: license.key, fingerprint: 'studio-mac', name: 'Studio Mac' }) });
    expect(activated.status).toBe(201);
    await api('PATCH', '/v1/portal-settings', { display_name: 'Field Sketching Co.', accent_color: '#0a7d45', support_url: 'https://shop.example.com/help' });
    // Another customer of the same merchant, whose ids the buyer's session must not reach.
    const otherBook = await grant(`someone_else_${Date.now()}`, bookId);

    const session = await api<{ url: string }>('POST', '/v1/portal-sessions', { store_customer_id: buyer, return_url: 'https://shop.example.com/account' });
    const page = await harness.newPage(LAPTOP);
    await page.goto(session.url);
    expect(new URL(page.url()).pathname).toBe('/portal/');
    await page.getByRole('heading', { level: 3, name: 'The Field Guide (PDF)' }).waitFor();

    // Branding.
    await expect(page.locator('#merchant-name').textContent()).resolves.toBe('Field Sketching Co.');
    expect(await page.getByRole('link', { name: 'Back to the shop' }).getAttribute('href')).toBe('https://shop.example.com/account');
    expect(await page.getByRole('link', { name: 'Help' }).getAttribute('href')).toBe('https://shop.example.com/help');
    const accent = await page.getByRole('button', { name: 'Download field-guide.pdf' }).evaluate((button) => getComputedStyle(button).backgroundColor);
    expect(accent).toBe('rgb(10, 125, 69)');

    // Instructions as text: the HTML is shown, not made into elements.
    const instructions = page.locator('.instructions');
    expect(await instructions.textContent()).toBe(INSTRUCTIONS);
    expect(await instructions.locator('b, script').count()).toBe(0);
    // The URL product's link.
    const course = page.locator('.card', { has: page.getByRole('heading', { name: 'Video course' }) });
    expect(await course.getByRole('link', { name: 'Open' }).getAttribute('href')).toBe('https://course.example.com/enroll');
    // The revoked one, apart and without delivery.
    const inactive = page.locator('#inactive-section');
    await inactive.getByRole('heading', { name: 'Refunded album' }).waitFor();
    expect(await inactive.locator('a, button').count()).toBe(0);
    expect(await page.locator('#active-section').getByRole('heading', { name: 'Refunded album' }).count()).toBe(0);

    // The file: downloaded through the browser, the same bytes.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download field-guide.pdf' }).click()]);
    expect(download.suggestedFilename()).toBe('field-guide.pdf');
    expect(readFileSync(await download.path()).equals(bytes)).toBe(true);

    // The license key with its device, then Deactivate.
    const keyCard = page.locator(`[data-license-key-id="${license.id}"]`);
    expect(await keyCard.locator('.license-key').textContent()).toBe(license.key);
    await keyCard.getByRole('button', { name: 'Deactivate Studio Mac' }).click();
    await keyCard.getByText('No device uses this key.').waitFor();
    expect((await api<{ activations_count: number }>('GET', `/v1/license-keys/${license.id}`)).activations_count).toBe(0);

    expect(await accessibilityProblems(page, 'portal at 1280 px')).toEqual([]);

    // Another customer's ids through this session: 404, from the page itself (with its CSRF token).
    const statuses = await page.evaluate(
      async ({ entitlementId, fileId, ownEntitlementId }) => {
        const { data } = (await (await fetch('/portal/api/session')).json()) as { data: { csrf_token: string } };
        const post = (path: string) => fetch(path, { method: 'POST', headers: { 'X-CSRF-Token': data.csrf_token } }).then((response) => response.status);
        return [await post(`/portal/api/entitlements/${entitlementId}/files/${fileId}/download`), await post(`/portal/api/entitlements/${ownEntitlementId}/files/${fileId}/download`)];
      },
      { entitlementId: otherBook.id, fileId: upload.file_id, ownEntitlementId: book.id },
    );
    expect(statuses).toEqual([404, 200]);

    // A phone: the same session, nothing wider than the screen.
    const phone = await harness.newPage(PHONE);
    await phone.goto(`${harness.baseUrl}/portal/`);
    await phone.getByRole('heading', { level: 3, name: 'The Field Guide (PDF)' }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await accessibilityProblems(phone, 'portal at 390 px')).toEqual([]);

    // The link again: a page that says so.
    const again = await harness.newPage(LAPTOP);
    const response = await again.goto(session.url);
    expect(response?.status()).toBe(410);
    await again.getByRole('heading', { name: 'This link was already used' }).waitFor();
  });

  it('from the dashboard: Settings → Portal edits the branding with a preview, and the customer page gives a portal link', async () => {
    const buyer = `dashboard_buyer_${Date.now()}`;
    const courseId = await product({ name: 'Dashboard course', fulfillment_config: { delivery_method: 'URL', access_url: 'https://course.example.com/dashboard' } });
    const granted = await grant(buyer, courseId);
    const page = await harness.newPage(LAPTOP);
    await signIn(page, harness.baseUrl, merchant.email);
    await openPage(page, 'Settings · Portal', 'Customer portal');
    await page.getByLabel(/^Display name/).fill('Sketchbook Store');
    await page.getByLabel(/^Accent colour/).fill('#7a1fa2');
    const preview = page.getByTestId('portal-preview');
    await preview.getByText('Sketchbook Store').waitFor();
    expect(await preview.locator('.button').evaluate((button) => getComputedStyle(button).backgroundColor)).toBe('rgb(122, 31, 162)');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await api<{ display_name: string; accent_color: string }>('GET', '/v1/portal-settings'))).toMatchObject({ display_name: 'Sketchbook Store', accent_color: '#7a1fa2' });
    expect(await accessibilityProblems(page, 'dashboard portal settings')).toEqual([]);

    await page.goto(`${harness.baseUrl}/dashboard/test/customers/${granted.customer_id}`);
    await settled(page);
    await page.getByRole('button', { name: 'Portal link' }).click();
    const shown = page.getByTestId('portal-link').filter({ hasText: '/portal/open/' });
    await shown.waitFor({ timeout: 30_000 }).catch(async () => {
      throw new Error(`No portal link shown: ${await page.locator('main').innerHTML()}`);
    });
    const link = (await shown.textContent()) ?? '';
    expect(link).toMatch(/\/portal\/open\//);
    const customerTab = await harness.newPage(LAPTOP);
    await customerTab.goto(link);
    await customerTab.getByRole('heading', { level: 3, name: 'Dashboard course' }).waitFor();
    expect(await customerTab.locator('#merchant-name').textContent()).toBe('Sketchbook Store');
  });
});
