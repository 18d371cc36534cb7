import type { Page } from 'playwright-core';
import { DashboardHarness, DashboardMerchant, describeWithBrowser, openPage, signIn, startDashboard } from '../support/dashboard-browser';

const PRODUCTS = 150;
const nameOf = (index: number) => `Catalogue item ${String(index).padStart(3, '0')}`;

/**
 * Lists page on the server by cursor, search and filter there: 150 products (more than any one
 * page, more than the old 100-item fetch), every one reachable by paging and by search, also from
 * the grant form's product picker.
 */
describeWithBrowser('dashboard lists in a browser', () => {
  let harness: DashboardHarness;
  let merchant: DashboardMerchant;
  let page: Page;

  beforeAll(async () => {
    harness = await startDashboard();
    merchant = await harness.createMerchant();
    // Created oldest first: item 001 is the last of the newest-first list.
    for (let index = 1; index <= PRODUCTS; index += 1) {
      const created = await harness.api(merchant.testKey, 'POST', '/v1/products', { name: nameOf(index), entitlement_type: 'permanent', store_product_id: `sku_${index}` });
      expect(created.status).toBe(201);
    }
    page = await harness.newPage();
    await signIn(page, harness.baseUrl, merchant.email);
  }, 180_000);

  afterAll(async () => {
    await harness?.close();
  });

  const pager = () => page.getByRole('navigation', { name: 'Pages of products' });

  it('pages through 150 products by cursor, forward to the oldest and back', async () => {
    await openPage(page, 'Products');
    await pager().getByText('1–25 of 150 products').waitFor();
    await page.getByRole('link', { name: nameOf(150) }).waitFor();
    const seen = new Set<string>();
    for (let pageNumber = 1; pageNumber <= 6; pageNumber += 1) {
      await pager().getByText(`${(pageNumber - 1) * 25 + 1}–${pageNumber * 25} of 150 products`).waitFor();
      for (const name of await page.getByRole('rowheader').allInnerTexts()) seen.add(name.split('\n')[0]);
      if (pageNumber < 6) await pager().getByRole('link', { name: 'Next →' }).click();
    }
    expect(seen.size).toBe(PRODUCTS);
    await page.getByRole('link', { name: nameOf(1) }).waitFor();
    expect(await pager().getByRole('link', { name: 'Next →' }).count()).toBe(0);
    // The address holds the page: a reload shows the same one.
    await page.reload();
    await page.getByRole('link', { name: nameOf(1) }).waitFor();
    await pager().getByRole('link', { name: '← Previous' }).click();
    await page.getByRole('link', { name: nameOf(26) }).waitFor();
  });

  it('searches every product on the server, by name, store id or id', async () => {
    await openPage(page, 'Products');
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('item 007');
    await page.getByRole('link', { name: nameOf(7) }).waitFor();
    await pager().getByText('1–1 of 1 product', { exact: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('sku_2');
    await page.getByRole('link', { name: nameOf(2) }).waitFor();
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('nothing like this');
    await page.getByText('No product matches.').waitFor();
  });

  it('finds the oldest of 150 products in the grant form’s picker, and grants it', async () => {
    await page.goto(`${harness.baseUrl}/dashboard/test/entitlements/new`);
    await page.getByLabel('Customer (store customer id)').fill('list-customer');
    await page.getByRole('combobox', { name: 'Product' }).fill('item 001');
    await page.getByRole('option', { name: new RegExp(nameOf(1)) }).click();
    await page.getByRole('button', { name: 'Grant' }).click();
    await page.getByRole('status').filter({ hasText: 'Granted.' }).waitFor();
  });

  it('filters entitlements by status and customer, and events by type, on the server', async () => {
    await openPage(page, 'Entitlements');
    await page.getByRole('row', { name: new RegExp(`${nameOf(1)}.*list-customer`) }).waitFor();
    await page.getByLabel('Status').selectOption('revoked');
    await page.getByText('No entitlement matches.').waitFor();
    await page.getByLabel('Status').selectOption('active');
    await page.getByRole('row', { name: new RegExp(nameOf(1)) }).waitFor();
    await openPage(page, 'Events');
    await page.getByLabel('Type').selectOption('entitlement.created');
    await page.getByRole('navigation', { name: 'Pages of events' }).getByText('1–1 of 1 event', { exact: true }).waitFor();
    await page.getByLabel('Type').selectOption('product.created');
    await page.getByRole('navigation', { name: 'Pages of events' }).getByText('1–25 of 150 events').waitFor();
  });
});
