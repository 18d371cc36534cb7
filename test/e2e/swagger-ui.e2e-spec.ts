import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BrowserContext, chromium, Locator, Page } from 'playwright-core';
import { API_TAGS } from '../../src/swagger/api-tags';
import { demoCredentials, RunningService, startService, waitUntilListening } from '../support/embedded-service';
import { freePort } from '../support/free-port';
import { CHROMIUM_EXECUTABLE, describeNeeding } from '../support/requirements';
import { testHttpAdapter } from '../support/test-adapter';

/**
 * Swagger UI as shipped, in a real browser (Debian's chromium, driven by playwright-core), on a
 * freshly started demo service: src/main.ts on an empty embedded database, which seeds the demo
 * merchant and its catalogue (src/demo/demo-catalogue.ts). The test authorizes with the demo key
 * the first start printed and the ADMIN_TOKEN, then, in the order Swagger UI lists the operations
 * (tags as declared, each tag's operations in document order), runs "Try it out" → Execute on
 * EVERY operation (DESIGN §20), typing nothing: bodies and queries are the document's examples,
 * and each path parameter holding one of our ids is filled by the page itself
 * (src/swagger/swagger-ui-fill-plugin.ts: the id of its kind in the last answer that had one).
 * The test checks those inputs were filled before it executes.
 *
 * What a person would choose on the page is chosen, and said so below; what no example can do is
 * done beside the browser and said so: the bytes of an upload go to its signed URL, and the test
 * send's endpoint is pointed at loopback. `.ci/run` installs chromium; elsewhere the suite is
 * skipped without it.
 */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const ARTIFACTS = path.join(__dirname, '..', 'artifacts');
const ADMIN_TOKEN = 'swagger-ui-walk-admin-token';

type Data = Record<string, unknown> & { id?: string };

interface Executed {
  /** 0: not sent (a required path parameter was left empty). */
  status: number;
  body: { data?: Data | Data[]; error?: { code?: string; message?: string } };
  /** The path parameters as the page filled them, before Execute. */
  filled: Record<string, string>;
}

/** One operation as Swagger UI lists it. */
interface Listed {
  tag: string;
  method: string;
  path: string;
  /** "POST /v1/entitlements" */
  key: string;
}

interface Walk {
  /** The data of each operation's last 2xx answer. */
  answers: Map<string, Data>;
  /** Executes an operation in Swagger UI again with these query values (typed in, or chosen in a select). */
  execute: (method: string, path: string, query: Record<string, string>) => Promise<Executed>;
  /** A request beside the browser, with the demo key (for what no example can do), answering `status` (200 unless said). */
  beside: (method: string, path: string, body: unknown, status?: number) => Promise<void>;
}

/** What a person does before executing an operation, beyond "Try it out" → Execute, and why. */
interface Before {
  why: string;
  act: (walk: Walk) => Promise<void>;
}

function answerOf(answers: Map<string, Data>, key: string): Data {
  const data = answers.get(key);
  if (!data) throw new Error(`${key} has not answered yet: the walk's order no longer creates what a later operation needs`);
  return data;
}

const BEFORE: Record<string, Before> = {
  'POST /v1/entitlements/{entitlement_id}/activate': {
    why:
      'activate needs a pending entitlement, and the last one answered was revoked: a person lists the pending ones (GET /v1/entitlements, ' +
      "store_customer_id emptied, status=pending chosen), which shows the demo catalogue's pending grant (store_cust_1002), and the page fills its id",
    act: async ({ execute }) => {
      const listed = await execute('get', '/v1/entitlements', { store_customer_id: '', status: 'pending' });
      expect({ status: listed.status, listed: (listed.body.data as Data[]).length > 0 }).toEqual({ status: 200, listed: true });
    },
  },
  'POST /v1/files/{file_id}/confirm': {
    why: "the bytes of the file POST /v1/files/upload-url announced go to its signed URL, beside the browser: no example can carry a file's bytes",
    act: async ({ answers }) => {
      const upload = answerOf(answers, 'POST /v1/files/upload-url') as { upload_url: string; upload_headers: Record<string, string>; file: { file_size: number } };
      const put = await fetch(upload.upload_url, { method: 'PUT', headers: upload.upload_headers, body: Buffer.alloc(upload.file.file_size, 1) });
      expect(put.status).toBeLessThan(300);
    },
  },
  'POST /v1/webhook-endpoints/{endpoint_id}/test': {
    why:
      'a test send really sends, so beside the browser the URL of the endpoint the POST /v1/webhook-endpoints example registered is first ' +
      'pointed at loopback port 9, where nothing listens (nothing leaves the machine; a failed send is a 200 with the attempt)',
    act: async ({ answers, beside }) => {
      await beside('PATCH', `/v1/webhook-endpoints/${String(answerOf(answers, 'POST /v1/webhook-endpoints').id)}`, { url: 'http://127.0.0.1:9/swagger-walk' });
    },
  },
};

/** The operations that can't answer 2xx when executed from the page, each with why. */
const EXCEPTIONS: Record<string, { status: number; code?: string; why: string }> = {
  'GET /v1/files/{file_id}/download': {
    status: 0,
    why:
      "a download names the entitlement and customer it is for (required query parameters), and the entitlement must include a product the file " +
      "belongs to: the upload-url example links the file to no product (a document can't name a product id of this install), so no entitlement " +
      'can, and the page fills no query; Swagger UI does not send (files-downloads.e2e-spec.ts downloads through every check)',
  },
  'GET /v1/usage/statements/{statement_id}': {
    status: 0,
    why:
      "a statement exists once the operator closes a month (POST /admin/v1/statements/close), and the demo merchant is this month's: no answer " +
      'before it has a stmt_ id to fill, so the page leaves the parameter empty and Swagger UI does not send',
  },
};

function parsedOrEmpty(text: string): Executed['body'] {
  try {
    return JSON.parse(text) as Executed['body'];
  } catch {
    // Not JSON (a CSV, a file's bytes): nothing of it is read.
    return {};
  }
}

describeNeeding(['chromium'], 'Swagger UI on a freshly seeded demo service', () => {
  let directory: string;
  let service: RunningService;
  let baseUrl: string;
  let demoKey: string;
  let context: BrowserContext;
  let userDataDirectory: string;
  let page: Page;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'eh-swagger-walk-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    // Signed local-storage URLs point at PUBLIC_BASE_URL: this service, so the upload step can PUT.
    // Private webhook URLs: the test send goes to loopback (see its step).
    service = startService(directory, port, { ADMIN_TOKEN, PUBLIC_BASE_URL: baseUrl, HTTP_ADAPTER: testHttpAdapter(), LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    await waitUntilListening(service);
    demoKey = demoCredentials(service.output()).key;
    userDataDirectory = mkdtempSync(path.join(tmpdir(), 'eh-chromium-'));
    context = await chromium.launchPersistentContext(userDataDirectory, {
      executablePath: CHROMIUM_EXECUTABLE,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1400, height: 2000 },
    });
    page = await context.newPage();
  }, 240_000);

  afterAll(async () => {
    await context?.close();
    await service?.stop();
    for (const created of [userDataDirectory, directory]) if (created) rmSync(created, { recursive: true, force: true });
  });

  /** The operation's block, found by method and path (operation ids are not this test's concern). */
  function operationBlock(method: string, template: string): Locator {
    return page.locator(`.opblock.opblock-${method}`).filter({ has: page.locator(`.opblock-summary-path[data-path="${template}"]`) }).first();
  }

  /**
   * Expands the operation, presses "Try it out", reads the path parameters as the page filled them,
   * sets only the given query values, executes (unless a required path parameter is empty: Swagger
   * UI would not send), reads the answer and collapses the block again.
   */
  async function tryOut(method: string, template: string, query: Record<string, string> = {}): Promise<Executed> {
    const block = operationBlock(method, template);
    await block.locator('.opblock-summary').first().click();
    // Once pressed, "Try it out" stays on for the operation (its button then says Cancel).
    if ((await block.locator('.try-out__btn.cancel').count()) === 0) await block.locator('.try-out__btn').click();
    const filled: Record<string, string> = {};
    for (const row of await block.locator('tr[data-param-in="path"]').all()) {
      filled[(await row.getAttribute('data-param-name')) ?? ''] = await row.locator('input').inputValue();
    }
    for (const [name, value] of Object.entries(query)) {
      const row = block.locator(`tr[data-param-name="${name}"]`);
      if ((await row.locator('select').count()) > 0) await row.locator('select').selectOption(value === '' ? { index: 0 } : value);
      else await row.locator('input').fill(value);
    }
    if (Object.values(filled).some((value) => value === '')) {
      await block.locator('.opblock-summary').first().click();
      return { status: 0, body: {}, filled };
    }
    await block.locator('.execute').click();
    const response = block.locator('.live-responses-table tr.response').first();
    // Either an answer, or Swagger UI's refusal to send: a required parameter left empty is marked invalid.
    await response.locator('.response-col_status').or(block.locator('.parameters input.invalid')).first().waitFor({ timeout: 15_000 });
    if ((await response.locator('.response-col_status').count()) === 0) {
      await block.locator('.opblock-summary').first().click();
      return { status: 0, body: {}, filled };
    }
    const status = Number((await response.locator('.response-col_status').innerText()).trim());
    const shown = response.locator('.response-col_description pre');
    const text = (await shown.count()) > 0 ? await shown.first().innerText() : '';
    // Collapse it again so the next block's rows are the only live responses in view.
    await block.locator('.opblock-summary').first().click();
    return { status, body: parsedOrEmpty(text), filled };
  }

  async function authorize(): Promise<void> {
    await page.locator('.auth-wrapper .authorize').click();
    for (const [scheme, secret] of [
      ['api_key', demoKey],
      ['admin_token', ADMIN_TOKEN],
    ]) {
      const form = page.locator('.modal-ux .auth-container').filter({ hasText: scheme }).first();
      await form.locator('input').fill(secret);
      await form.locator('button.authorize').click();
    }
    await page.locator('.modal-ux button.close-modal').first().click();
  }

  /** Every operation in the order the page lists it: each tag's section, each section's blocks. */
  async function listedOperations(): Promise<Listed[]> {
    const listed = await page.$$eval('.opblock-tag-section', (sections) =>
      sections.flatMap((section) => {
        const tag = section.querySelector('.opblock-tag')?.getAttribute('data-tag') ?? '';
        return [...section.querySelectorAll('.opblock')].map((block) => ({
          tag,
          method: [...block.classList].find((name) => name.startsWith('opblock-') && !name.startsWith('opblock-summary'))?.replace('opblock-', '') ?? '',
          path: block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '',
        }));
      }),
    );
    return listed.map((operation) => ({ ...operation, key: `${operation.method.toUpperCase()} ${operation.path}` }));
  }

  it('runs every operation from the page, in the order Swagger UI lists them, each answering 2xx but the listed exceptions', async () => {
    await page.goto(`${baseUrl}/docs`);
    await page.locator('.swagger-ui .info .title').waitFor({ timeout: 30_000 });
    await authorize();

    const operations = await listedOperations();
    // Tags in the declared order (each tag's section once, in API_TAGS order).
    expect([...new Set(operations.map((operation) => operation.tag))]).toEqual(API_TAGS.map((tag) => tag.name).filter((name) => operations.some((operation) => operation.tag === name)));

    const answers = new Map<string, Data>();
    const walk: Walk = {
      answers,
      execute: tryOut,
      beside: async (method, besidePath, body, status = 200) => {
        const answered = await fetch(`${baseUrl}${besidePath}`, { method, headers: { Authorization: `Bearer ${demoKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        expect({ request: `${method} ${besidePath}`, status: answered.status }).toEqual({ request: `${method} ${besidePath}`, status });
      },
    };
    const results: Array<{ operation: string; status: number; code?: string; filled: Record<string, string> }> = [];
    for (const operation of operations) {
      await BEFORE[operation.key]?.act(walk);
      const executed = await tryOut(operation.method, operation.path);
      results.push({ operation: operation.key, status: executed.status, code: executed.body.error?.code, filled: executed.filled });
      if (executed.status >= 200 && executed.status < 300) answers.set(operation.key, executed.body.data as Data);
    }

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'swagger-ui-try-it-out.png'), fullPage: false });
    const green = results.filter((result) => result.status >= 200 && result.status < 300);
    process.stdout.write(`Swagger UI walk (${testHttpAdapter()}): ${green.length} of ${results.length} operations 2xx\n`);
    // Every operation of the page ran, in its order.
    expect(results.map((result) => result.operation)).toEqual(operations.map((operation) => operation.key));
    // The page filled every id of a path (the test typed none): only an exception may find one empty.
    const unfilled = results.filter((result) => Object.values(result.filled).some((value) => value === '')).map((result) => result.operation);
    expect(unfilled).toEqual(['GET /v1/usage/statements/{statement_id}']);
    // Each answered 2xx, but the exceptions, as listed (a failure shows the status and code the page got).
    expect(results.filter((result) => result.status < 200 || result.status >= 300).map(({ operation, status, code }) => ({ operation, status, code }))).toEqual(
      operations.filter((operation) => EXCEPTIONS[operation.key]).map((operation) => ({ operation: operation.key, status: EXCEPTIONS[operation.key].status, code: EXCEPTIONS[operation.key].code })),
    );
  }, 900_000);

  it('answers the access check from its pre-filled examples: the demo customer holds the ebook through the bundle', async () => {
    const checked = await tryOut('get', '/v1/entitlements/check');
    expect(checked.status).toBe(200);
    expect(checked.body.data).toMatchObject({ entitled: true, entitlement: { access_type: 'bundle' } });
  }, 60_000);
});
