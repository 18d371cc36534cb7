import { systemAudit } from '../../src/auth/request-audit';
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { MerchantsService } from '../../src/auth/merchants.service';
import { DashboardUsersService } from '../../src/dashboard/dashboard-users.service';
import { freePort } from './free-port';
import { CHROMIUM_EXECUTABLE, describeNeeding } from './requirements';
import { bearer, createTestApp, TestApp } from './test-app';

/*
 * The dashboard in a real browser: Debian's chromium through playwright-core, on the built app
 * (the test setup builds dashboard/dist when it is missing or stale), served by the real AppModule
 * on a loopback port.
 */
export const CHROMIUM = CHROMIUM_EXECUTABLE;
export const ARTIFACTS = path.join(__dirname, '..', 'artifacts');
/** Where the guide's screenshots go: docs/ when DASHBOARD_SCREENSHOTS=docs, else test/artifacts/. */
export const SCREENSHOTS = process.env.DASHBOARD_SCREENSHOTS === 'docs' ? path.join(__dirname, '..', '..', 'docs', 'dashboard') : ARTIFACTS;
export const PASSWORD = 'a long enough password';

/** Chromium without anything that reaches the network on its own, sandbox or GPU. */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Suites that need the browser: run where chromium is installed (always in CI), else say why in one line. */
export const describeWithBrowser = (name: string, body: () => void): void => describeNeeding(['chromium'], name, body);

export const LAPTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface DashboardMerchant {
  merchantId: string;
  name: string;
  email: string;
  /** Keys with every scope, for the test's own calls (never through the browser); '' without keys. */
  testKey: string;
  liveKey: string;
  /** The user's one-time setup link, when the password is left for the test to set. */
  setupUrl: string | null;
}

export interface DashboardHarness {
  testApp: TestApp;
  baseUrl: string;
  context: BrowserContext;
  /**
   * A merchant with one dashboard user whose password is PASSWORD (or, with `setPassword: false`,
   * its setup link), and keys with every scope unless `withKeys: false` (a new merchant's state).
   */
  createMerchant(options?: { name?: string; email?: string; withKeys?: boolean; setPassword?: boolean }): Promise<DashboardMerchant>;
  /** A new tab in the browser (one profile: tabs share the session cookie). */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** Calls /v1 with a key, as a merchant's backend does. */
  api<T = unknown>(key: string, method: string, route: string, body?: unknown): Promise<{ status: number; body: { data: T; error?: { code: string } } }>;
  close(): Promise<void>;
}

export async function startDashboard(overrides: Record<string, string> = {}): Promise<DashboardHarness> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const testApp = await createTestApp({ PUBLIC_BASE_URL: baseUrl, ...overrides });
  await testApp.app.listen(port, '127.0.0.1');
  // A fresh profile for every run: no cache, cookie or storage of an earlier one.
  const profile = mkdtempSync(path.join(tmpdir(), 'eh-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: LAPTOP });
  mkdirSync(ARTIFACTS, { recursive: true });
  let counter = 0;
  const api: DashboardHarness['api'] = async (key, method, route, body) => {
    const response = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { ...bearer(key), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as never };
  };
  return {
    testApp,
    baseUrl,
    context,
    api,
    async createMerchant(options = {}) {
      counter += 1;
      const name = options.name ?? `Browser Books ${counter}`;
      const merchant = await testApp.app.get(MerchantsService).create(name, 'growth', systemAudit('test.createMerchant'));
      const email = options.email ?? `browser-${Date.now()}-${counter}@example.com`;
      const users = testApp.app.get(DashboardUsersService);
      const created = await users.create(merchant.id, email, {}, systemAudit('test.createUser'));
      const setPassword = options.setPassword ?? true;
      if (setPassword) await users.completeSetup(new URL(created.setup_url).hash.replace(/^#token=/, ''), PASSWORD);
      const withKeys = options.withKeys ?? true;
      const testKey = withKeys ? await testApp.createKey(merchant.id, 'test', ['*']) : '';
      const liveKey = withKeys ? await testApp.createKey(merchant.id, 'live', ['*']) : '';
      return { merchantId: merchant.id, name, email, testKey, liveKey, setupUrl: setPassword ? null : created.setup_url };
    },
    async newPage(viewport = LAPTOP) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      await testApp.close();
    },
  };
}

/** Signs in through the form, on any dashboard address (sign-in shows in its place). */
export async function signIn(page: Page, baseUrl: string, email: string, address = '/dashboard/test'): Promise<void> {
  await page.goto(`${baseUrl}${address}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Pages', exact: true }).waitFor();
}

/** Opens a page from the page list and waits for its heading. */
export async function openPage(page: Page, label: string, heading = label.replace(/^Settings · /, '')): Promise<void> {
  const navigation = page.getByRole('navigation', { name: 'Pages', exact: true });
  if (!(await navigation.isVisible())) await page.getByRole('button', { name: 'Menu' }).click();
  await navigation.getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** Waits until the page has nothing loading (no request in flight, no "Loading…" shown). */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.getByText(/^Loading .*…$/).first().waitFor({ state: 'detached' }).catch(() => undefined);
  await page.waitForFunction(() => !document.body.innerText.match(/\bLoading [^\n]*…/));
}

/** Serious and critical accessibility problems on the page as it is now (axe-core). */
export async function accessibilityProblems(page: Page, label: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${label}: ${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** How far the page scrolls sideways (0 when everything fits the window's width). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth);
}
