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
 * merchant and its catalogue (src/demo/demo-catalogue.ts). The test authorizes with the key the
 * first start printed and, in the order Swagger UI lists the operations (tags as declared, each
 * tag's operations in document order), runs "Try it out" → Execute on every POST, PUT and PATCH
 * with the body Swagger UI pre-fills: an operation's example, or the body it builds from the
 * schema. Nothing in a body is typed; every answer must be a 2xx.
 *
 * What a document can't know ahead is the ids of the reader's records: an operation whose path
 * takes one of our ids (no example) gets it from an earlier answer, as a person would, and the
 * table below says which answer and why. What no example can do is done beside the browser and
 * said so: the bytes of an upload go to its signed URL. `.ci/run` installs chromium; elsewhere
 * the suite is skipped without it.
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
const WRITE_METHODS = ['post', 'put', 'patch'];

type Data = Record<string, unknown> & { id?: string };

interface Executed {
  status: number;
  body: { data?: Data | Data[]; error?: unknown };
}

/** One operation as Swagger UI lists it. */
interface Listed {
  tag: string;
  method: string;
  path: string;
  /** "POST /v1/entitlements" */
  key: string;
}

/** What the walk has seen: the data of each operation's last answer. */
type Answers = Map<string, Data>;

interface Walk {
  answers: Answers;
  /** Executes a read in Swagger UI with these query values (typed in, or chosen in a select) and returns its data. */
  list: (path: string, query: Record<string, string>) => Promise<Data[]>;
  /** A request beside the browser, with the demo key (for what no example can do), answering `status` (200 unless said); its data. */
  beside: (method: string, path: string, body: unknown, status?: number) => Promise<Data>;
}

interface IdFromAnEarlierAnswer {
  why: string;
  ids: (walk: Walk) => Promise<Record<string, string>>;
}

function answerOf(answers: Answers, key: string): Data {
  const data = answers.get(key);
  if (!data) throw new Error(`${key} has not answered yet: the walk's order no longer creates what a later operation needs`);
  return data;
}

/** The id in an earlier operation's answer (`field` of its data, `id` by default). */
function fromAnswer(operation: string, parameter: string, why: string, field = 'id'): IdFromAnEarlierAnswer {
  return { why, ids: async ({ answers }) => ({ [parameter]: String(answerOf(answers, operation)[field]) }) };
}

const THE_GRANT = 'the entitlement the POST /v1/entitlements example granted';

/**
 * Every write operation whose path takes one of our ids, and where the walk gets it: always an
 * answer the reader has seen on the page before. (A store id in a path, like PUT
 * /v1/subscriptions/store/{store_subscription_id}, has an example and needs nothing.)
 */
const NEEDS_AN_ID_FROM_AN_EARLIER_ANSWER: Record<string, IdFromAnEarlierAnswer> = {
  'PATCH /v1/entitlements/{entitlement_id}': fromAnswer('POST /v1/entitlements', 'entitlement_id', THE_GRANT),
  'POST /v1/entitlements/{entitlement_id}/suspend': fromAnswer('POST /v1/entitlements', 'entitlement_id', THE_GRANT),
  'POST /v1/entitlements/{entitlement_id}/reactivate': fromAnswer('POST /v1/entitlements', 'entitlement_id', THE_GRANT),
  'POST /v1/entitlements/{entitlement_id}/activate': {
    why: "activate needs a pending entitlement: the demo catalogue's pending grant (store_cust_1002), listed by GET /v1/entitlements with status=pending",
    ids: async ({ list }) => ({ entitlement_id: String((await list('/v1/entitlements', { store_customer_id: '', status: 'pending' }))[0].id) }),
  },
  'POST /v1/entitlements/{entitlement_id}/usage': fromAnswer('POST /v1/entitlements', 'entitlement_id', THE_GRANT),
  'POST /v1/entitlements/{entitlement_id}/revoke': fromAnswer('POST /v1/entitlements', 'entitlement_id', THE_GRANT),
  'POST /v1/entitlements/{entitlement_id}/token': fromAnswer(
    'POST /v1/entitlements/{entitlement_id}/activate',
    'entitlement_id',
    'a token needs an active entitlement: the one activate just made active (the grant was revoked before)',
  ),
  'PATCH /v1/products/{product_id}': fromAnswer('POST /v1/products', 'product_id', 'the product the POST /v1/products example created'),
  'POST /v1/orders/{order_id}/refund': fromAnswer('POST /v1/orders', 'order_id', 'the order the POST /v1/orders example recorded'),
  'PATCH /v1/grant-rules/{rule_id}': fromAnswer('POST /v1/grant-rules', 'rule_id', 'the rule the POST /v1/grant-rules example created'),
  'POST /v1/files/{file_id}/confirm': fromAnswer(
    'POST /v1/files/upload-url',
    'file_id',
    "the file POST /v1/files/upload-url announced (its file_id), once its bytes are PUT to the signed URL beside the browser: no example can carry a file's bytes",
    'file_id',
  ),
  'POST /v1/events/{event_id}/redeliver': {
    why: 'the newest event, listed by GET /v1/events',
    ids: async ({ list }) => ({ event_id: String((await list('/v1/events', {}))[0].id) }),
  },
  'PATCH /v1/webhook-endpoints/{endpoint_id}': fromAnswer('POST /v1/webhook-endpoints', 'endpoint_id', 'the endpoint the POST /v1/webhook-endpoints example registered'),
  'POST /v1/webhook-endpoints/{endpoint_id}/rotate-secret': fromAnswer('POST /v1/webhook-endpoints', 'endpoint_id', 'the endpoint the POST /v1/webhook-endpoints example registered'),
  'POST /v1/webhook-endpoints/{endpoint_id}/test': {
    why:
      'the endpoint the POST /v1/webhook-endpoints example registered; a test send really sends, so beside the browser its URL is first ' +
      'pointed at loopback port 9, where nothing listens (nothing leaves the machine; a failed send is a 200 with the attempt)',
    ids: async ({ answers, beside }) => {
      const endpointId = String(answerOf(answers, 'POST /v1/webhook-endpoints').id);
      await beside('PATCH', `/v1/webhook-endpoints/${endpointId}`, { url: 'http://127.0.0.1:9/swagger-walk' });
      return { endpoint_id: endpointId };
    },
  },
  'POST /v1/test-clocks/{test_clock_id}/advance': fromAnswer('POST /v1/test-clocks', 'test_clock_id', 'the clock the POST /v1/test-clocks example created'),
  'PATCH /v1/license-keys/{license_key_id}': {
    why:
      'a license key is issued with a grant of a product that issues keys (DESIGN §18), which the demo catalogue has none of: beside the browser ' +
      'such a product is created and granted, and the key is the one GET /v1/license-keys lists for that grant',
    ids: async ({ beside, list }) => {
      const body = { name: 'Swagger walk app', entitlement_type: 'permanent', license: { activation_limit: 3 }, fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/app' } };
      const product = await beside('POST', '/v1/products', body, 201);
      const grant = await beside('POST', '/v1/entitlements', { store_customer_id: 'swagger_walk_licensee', product_id: product.id }, 201);
      return { license_key_id: String((await list('/v1/license-keys', { entitlement_id: String(grant.id) }))[0].id) };
    },
  },
  'PATCH /admin/v1/merchants/{merchant_id}': fromAnswer('POST /admin/v1/merchants', 'merchant_id', 'the merchant the POST /admin/v1/merchants example created'),
  'POST /admin/v1/merchants/{merchant_id}/api-keys': fromAnswer('POST /admin/v1/merchants', 'merchant_id', 'the merchant the POST /admin/v1/merchants example created'),
  'POST /admin/v1/merchants/{merchant_id}/users': fromAnswer('POST /admin/v1/merchants', 'merchant_id', 'the merchant the POST /admin/v1/merchants example created'),
};

/**
 * The operations that can't answer 2xx as shipped, each with why: a customer's app calls the
 * license routes with the key typed in by its user, and the document's example key is made up (no
 * example can carry a key this install issued). licenses.e2e-spec.ts runs them with real keys.
 */
const REFUSED_AS_SHIPPED: Record<string, { status: number; code: string; why: string }> = Object.fromEntries(
  ['validate', 'activate', 'deactivate', 'heartbeat'].map((action) => [
    `POST /v1/licenses/${action}`,
    { status: 404, code: 'LICENSE_KEY_NOT_FOUND', why: "the example key is made up: an app sends the key its user typed in, issued with a purchase" },
  ]),
);

interface DocumentParameter {
  name: string;
  in: string;
  example?: unknown;
  schema?: { example?: unknown };
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

  /** Expands the operation, presses "Try it out", fills only the given parameters, executes, reads the answer, collapses it. */
  async function tryOut(method: string, template: string, parameters: Record<string, string> = {}): Promise<Executed> {
    const block = operationBlock(method, template);
    await block.locator('.opblock-summary').first().click();
    await block.locator('.try-out__btn').click();
    for (const [name, value] of Object.entries(parameters)) {
      const row = block.locator(`tr[data-param-name="${name}"]`);
      if ((await row.locator('select').count()) > 0) await row.locator('select').selectOption(value === '' ? { index: 0 } : value);
      else await row.locator('input').fill(value);
    }
    await block.locator('.execute').click();
    const response = block.locator('.live-responses-table tr.response').first();
    await response.locator('.response-col_status').waitFor({ timeout: 15_000 });
    const status = Number((await response.locator('.response-col_status').innerText()).trim());
    const text = await response.locator('.response-col_description pre').first().innerText();
    // Collapse it again so the next block's rows are the only live responses in view.
    await block.locator('.opblock-summary').first().click();
    return { status, body: JSON.parse(text) as Executed['body'] };
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

  it('runs every write operation as shipped, in the order Swagger UI lists them, each answering 2xx', async () => {
    await page.goto(`${baseUrl}/docs`);
    await page.locator('.swagger-ui .info .title').waitFor({ timeout: 30_000 });
    await authorize();
    const document = (await (await fetch(`${baseUrl}/docs/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: DocumentParameter[] }>>;
    };

    const operations = await listedOperations();
    // Tags in the declared order (each tag's section once, in API_TAGS order).
    expect([...new Set(operations.map((operation) => operation.tag))]).toEqual(API_TAGS.map((tag) => tag.name).filter((name) => operations.some((operation) => operation.tag === name)));
    const writes = operations.filter((operation) => WRITE_METHODS.includes(operation.method));
    // The operations that need an id from an earlier answer are exactly those whose path takes one of our ids (no example).
    const needingIds = writes
      .filter((operation) => (document.paths[operation.path][operation.method].parameters ?? []).some((parameter) => parameter.in === 'path' && (parameter.example ?? parameter.schema?.example) === undefined))
      .map((operation) => operation.key);
    expect(needingIds.sort()).toEqual(Object.keys(NEEDS_AN_ID_FROM_AN_EARLIER_ANSWER).sort());

    const answers: Answers = new Map();
    const walk: Walk = {
      answers,
      list: async (listPath, query) => {
        const listedAnswer = await tryOut('get', listPath, query);
        expect({ operation: `GET ${listPath}`, status: listedAnswer.status }).toEqual({ operation: `GET ${listPath}`, status: 200 });
        return listedAnswer.body.data as Data[];
      },
      beside: async (method, besidePath, body, status = 200) => {
        const answered = await fetch(`${baseUrl}${besidePath}`, { method, headers: { Authorization: `Bearer ${demoKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        expect({ request: `${method} ${besidePath}`, status: answered.status }).toEqual({ request: `${method} ${besidePath}`, status });
        return ((await answered.json()) as { data: Data }).data;
      },
    };
    const results: Array<{ operation: string; status: number; error?: unknown }> = [];
    for (const operation of writes) {
      const source = NEEDS_AN_ID_FROM_AN_EARLIER_ANSWER[operation.key];
      if (operation.key === 'POST /v1/files/{file_id}/confirm') {
        // The upload itself: the bytes go to the signed URL the upload-url answer gave.
        const upload = answerOf(answers, 'POST /v1/files/upload-url') as { upload_url: string; upload_headers: Record<string, string>; file: { file_size: number } };
        const put = await fetch(upload.upload_url, { method: 'PUT', headers: upload.upload_headers, body: Buffer.alloc(upload.file.file_size, 1) });
        expect(put.status).toBeLessThan(300);
      }
      const executed = await tryOut(operation.method, operation.path, source ? await source.ids(walk) : {});
      results.push({ operation: operation.key, status: executed.status, ...(executed.status >= 300 ? { error: executed.body.error } : {}) });
      if (executed.status < 300) answers.set(operation.key, executed.body.data as Data);
    }

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'swagger-ui-try-it-out.png'), fullPage: false });
    // Every write operation ran (27 on 2026-11-26, the webhook test send included), and each answered 2xx; a failure shows the error the shipped body caused.
    expect(results.map((result) => result.operation)).toEqual(writes.map((operation) => operation.key));
    const refused = results.filter((result) => result.status < 200 || result.status >= 300);
    expect(refused.map((result) => ({ operation: result.operation, status: result.status, code: (result.error as { code?: string } | undefined)?.code }))).toEqual(
      writes.filter((operation) => REFUSED_AS_SHIPPED[operation.key]).map((operation) => ({ operation: operation.key, status: REFUSED_AS_SHIPPED[operation.key].status, code: REFUSED_AS_SHIPPED[operation.key].code })),
    );
  }, 300_000);

  it('answers the access check from its pre-filled examples: the demo customer holds the ebook through the bundle', async () => {
    const checked = await tryOut('get', '/v1/entitlements/check');
    expect(checked.status).toBe(200);
    expect(checked.body.data).toMatchObject({ entitled: true, entitlement: { access_type: 'bundle' } });
  }, 60_000);
});
