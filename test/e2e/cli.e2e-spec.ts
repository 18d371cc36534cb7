import { DataSource } from 'typeorm';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { bearer, createTestApp, TestApp } from '../support/test-app';

/**
 * The CLI (`npm run cli -- …`) run as a real child process against the run's database: JSON on
 * stdout, errors as JSON on stderr with exit codes 1 (refused) and 2 (usage). What it creates is
 * then used through the HTTP API. Embedded mode: the CLI and the app open the same data directory
 * one after the other (the embedded database is single-process).
 */
const REPOSITORY = path.join(__dirname, '..', '..');
/** Each test spawns several CLI processes through ts-node (seconds each on a busy machine). */
const CLI_SUITE_TIMEOUT = 240_000;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `src/cli/main.ts` in a child process with only the given environment (and PATH, HOME). */
function runCli(environment: Record<string, string>, args: string[], preload: string[] = []): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', ...preload.flatMap((module) => ['-r', module]), path.join(REPOSITORY, 'src', 'cli', 'main.ts'), ...args],
      {
        cwd: REPOSITORY,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, TS_NODE_PROJECT: path.join(REPOSITORY, 'tsconfig.json'), ...environment },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('CLI', () => {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'eh-cli-'));
  const databaseUrl = process.env.EH_TEST_DATABASE_URL;
  const databaseEnvironment: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDirectory };
  let testApp: TestApp | null = null;
  let merchantId = '';

  function cli(...args: string[]): Promise<CliResult> {
    return cliWith(databaseEnvironment, ...args);
  }

  function cliWith(environment: Record<string, string>, ...args: string[]): Promise<CliResult> {
    return runCli(environment, args);
  }

  function json<T>(result: CliResult): T {
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(result.stdout) as T;
  }

  /** The API over the same database the CLI wrote (started after the CLI exits, for the embedded case). */
  async function openApp(): Promise<TestApp> {
    testApp = await createTestApp(databaseUrl ? {} : { DATABASE_URL: '', DATA_DIR: dataDirectory });
    return testApp;
  }

  afterAll(async () => {
    await testApp?.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('creates a merchant and keys, lists and revokes them, changes the plan and reports usage, all as JSON', async () => {
    const merchant = json<{ id: string; name: string; plan: string; created_at: string }>(
      await cli('merchants:create', '--name', 'CLI merchant', '--plan', 'growth'),
    );
    expect(merchant).toEqual({
      id: expect.stringMatching(/^mer_/),
      name: 'CLI merchant',
      plan: 'growth',
      limits: { max_file_size_bytes: null, storage_bytes: null, bandwidth_bytes: null },
      overage_price_per_gib: null,
      stripe_customer_id: null,
      created_at: expect.stringMatching(/Z$/),
    });
    merchantId = merchant.id;

    const readKey = json<{ id: string; key: string; prefix: string; mode: string; scopes: string[] }>(
      await cli('api-keys:create', '--merchant', merchant.id, '--mode', 'test', '--scopes', 'products:read', '--name', 'reader'),
    );
    expect(readKey).toMatchObject({ mode: 'test', scopes: ['products:read'], name: 'reader' });
    expect(readKey.key).toMatch(/^eh_test_[0-9A-Za-z]{32,}$/);
    expect(readKey.prefix).toBe(readKey.key.slice(0, 12));
    const revokedKey = json<{ id: string; key: string }>(await cli('api-keys:create', '--merchant', merchant.id, '--mode', 'live'));

    const listed = json<Array<Record<string, unknown>>>(await cli('api-keys:list', '--merchant', merchant.id));
    expect(listed.map((key) => key.id).sort()).toEqual([readKey.id, revokedKey.id].sort());
    for (const key of listed) {
      expect(key).not.toHaveProperty('key');
      expect(key).not.toHaveProperty('key_hash');
      expect(JSON.stringify(key)).not.toContain(readKey.key);
    }

    const revoked = json<{ id: string; revoked_at: string | null }>(await cli('api-keys:revoke', '--key', revokedKey.id));
    expect(revoked).toMatchObject({ id: revokedKey.id, revoked_at: expect.stringMatching(/Z$/) });

    const replanned = json<{ plan: string }>(await cli('merchants:set-plan', '--merchant', merchant.id, '--plan', 'pro'));
    expect(replanned.plan).toBe('pro');
    const usage = json<{ plan: string; limits: { storage_bytes: number; max_file_size_bytes: number } }>(
      await cli('usage', '--merchant', merchant.id),
    );
    expect(usage).toMatchObject({ plan: 'pro', limits: { storage_bytes: 10 * 2 ** 30, max_file_size_bytes: 2 ** 30 } });

    const app = await openApp();
    const products = await app.http.get('/v1/products').set(bearer(readKey.key)).expect(200);
    expect(products.body.data).toEqual([]);
    await app.http.get('/v1/entitlements/check?customer_id=cus_x&product_id=prod_x').set(bearer(readKey.key)).expect(403);
    const refused = await app.http.get('/v1/products').set(bearer(revokedKey.key)).expect(401);
    expect(refused.body.error.code).toBe('INVALID_API_KEY');
    // Each command's write recorded its audit row with the CLI as the actor (DESIGN §11), oldest first.
    const audited: Array<{ action: string; actor_type: string; actor_id: string; object_id: string; request_id: string | null }> = await app.app
      .get(DataSource)
      .query('SELECT action, actor_type, actor_id, object_id, request_id FROM audit_log WHERE merchant_id = $1 ORDER BY created_at, id', [merchant.id]);
    expect(audited.map((row) => [row.action, row.object_id])).toEqual([
      ['cli.merchants:create', merchant.id],
      ['cli.api-keys:create', readKey.id],
      ['cli.api-keys:create', revokedKey.id],
      ['cli.api-keys:revoke', revokedKey.id],
      ['cli.merchants:set-plan', merchant.id],
    ]);
    expect(audited.every((row) => row.actor_type === 'system' && row.actor_id === 'cli' && row.request_id === null)).toBe(true);
  }, CLI_SUITE_TIMEOUT);

  it("sets a merchant's own billing terms and exports a month's statements as CSV (DESIGN §17)", async () => {
    // The CLI opens the database itself (the embedded one takes one process at a time).
    await testApp?.close();
    testApp = null;
    // Own terms (DESIGN §17): a number sets one, 'plan' restores the plan's, an absent option stays.
    const termed = json<Record<string, unknown>>(
      await cli('merchants:set-terms', '--merchant', merchantId, '--bandwidth-bytes', '2147483648', '--overage-price-per-gib', '4', '--stripe-customer', 'cus_Cli1'),
    );
    expect(termed).toMatchObject({ limits: { bandwidth_bytes: 2 ** 31, storage_bytes: null }, overage_price_per_gib: 4, stripe_customer_id: 'cus_Cli1' });
    // The operator's CSV of a month's live statements: a header row at least (RFC 4180 line ends).
    const exported = await cli('statements:export', '--month', '2020-01');
    expect(exported.code).toBe(0);
    expect(exported.stdout).toBe('id,merchant_id,month,mode,plan,included_bandwidth_bytes,bandwidth_bytes,overage_bytes,price_per_gib,currency,amount,created_at,reported_at,report_error\r\n');
  }, CLI_SUITE_TIMEOUT);

  it('answers refusals on stderr as JSON with exit code 1, and usage errors with exit code 2', async () => {
    await testApp?.close();
    testApp = null;
    const unknownMerchant = await cli('usage', '--merchant', 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w');
    expect(unknownMerchant.code).toBe(1);
    expect(unknownMerchant.stdout).toBe('');
    expect(JSON.parse(unknownMerchant.stderr)).toEqual({ error: { code: 'MERCHANT_NOT_FOUND', message: expect.any(String) } });

    const badScope = await cli('api-keys:create', '--merchant', merchantId, '--mode', 'test', '--scopes', 'everything');
    expect(badScope.code).toBe(1);
    expect(JSON.parse(badScope.stderr).error).toMatchObject({ code: 'INVALID_PARAMETER', message: expect.stringContaining("'everything'") });

    const missingOption = await cli('merchants:create');
    expect(missingOption.code).toBe(2);
    expect(JSON.parse(missingOption.stderr).error).toMatchObject({ code: 'USAGE', message: '--name is required' });

    const badPlan = await cli('merchants:create', '--name', 'x', '--plan', 'platinum');
    expect(badPlan.code).toBe(2);

    const unknownCommand = await cli('merchants:delete');
    expect(unknownCommand).toMatchObject({ code: 2, stdout: '' });
    expect(JSON.parse(unknownCommand.stderr)).toEqual({
      error: { code: 'UNKNOWN_COMMAND', message: expect.stringContaining("'merchants:delete'"), commands: expect.arrayContaining(['merchants:create']) },
    });

    const help = await cli('help');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('Usage: npm run cli');
  }, CLI_SUITE_TIMEOUT);

  it('answers "database in use" as one JSON object when a live process holds the embedded database', async () => {
    const lockedDirectory = mkdtempSync(path.join(tmpdir(), 'eh-cli-locked-'));
    try {
      // The lock file names a live process (this test runner), as a running server's would.
      writeFileSync(path.join(lockedDirectory, 'pg.lock'), String(process.pid));
      const result = await cliWith({ DATA_DIR: lockedDirectory, DATABASE_URL: '' }, 'api-keys:list', '--merchant', 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w');
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(JSON.parse(result.stderr)).toEqual({ error: { code: 'DATABASE_IN_USE', message: expect.stringContaining(`in use by process ${process.pid}`) } });
    } finally {
      rmSync(lockedDirectory, { recursive: true, force: true });
    }
  });

  it('imports a CSV or JSON file, processed in its own process, and prints the report as JSON (no progress bar off a terminal)', async () => {
    await testApp?.close();
    testApp = null;
    const csvFile = path.join(dataDirectory, 'rows.csv');
    writeFileSync(csvFile, 'store_customer_id,store_product_id\ncli_import_1,sku_not_here\ncli_import_2,\n');
    const report = json<Record<string, unknown>>(await cli('import', '--merchant', merchantId, '--mode', 'test', '--file', csvFile));
    expect(report).toMatchObject({ status: 'completed', total_rows: 2, processed_rows: 2, granted: 0, failed: 2 });
    expect(report.errors).toEqual([
      { row: 1, code: 'PRODUCT_NOT_FOUND', message: "No product with store_product_id 'sku_not_here'" },
      { row: 2, code: 'MISSING_REQUIRED_FIELD', message: "Pass one of 'product_id' or 'store_product_id'" },
    ]);
    const jsonFile = path.join(dataDirectory, 'rows.json');
    writeFileSync(jsonFile, JSON.stringify({ rows: [{ store_customer_id: 'cli_import_3', product_id: 'prod_nope' }] }));
    expect(json<Record<string, unknown>>(await cli('import', '--merchant', merchantId, '--mode', 'live', '--file', jsonFile))).toMatchObject({ total_rows: 1, failed: 1 });
    const missingFile = await cli('import', '--merchant', merchantId, '--mode', 'test');
    expect(missingFile.code).toBe(2);
    expect(JSON.parse(missingFile.stderr).error).toMatchObject({ code: 'USAGE', message: '--file is required' });
    // Three CLI processes, each booting the imports worker: more than one CLI call's time.
  }, 180_000);

  it('creates a dashboard user whose setup link works on the API', async () => {
    await testApp?.close();
    testApp = null;
    const user = json<{ id: string; email: string; setup_url: string }>(await cli('users:create', '--merchant', merchantId, '--email', 'Cli.User@example.com'));
    expect(user).toMatchObject({ id: expect.stringMatching(/^user_/), email: 'cli.user@example.com', setup_url: expect.stringMatching(/\/dashboard\/setup#token=/) });
    const app = await openApp();
    const token = new URL(user.setup_url).hash.replace('#token=', '');
    await app.http.post('/dashboard/api/setup').send({ token, password: 'a password from the cli' }).expect(200);
    await app.http.post('/dashboard/api/sign-in').send({ email: 'cli.user@example.com', password: 'a password from the cli' }).expect(200);
  }, CLI_SUITE_TIMEOUT);
});

/**
 * The CLI when the database can't answer, and its usage errors, against a loopback server that
 * accepts connections and never says a word (a hung PostgreSQL): whatever connects to it waits.
 */
describe('CLI without a database', () => {
  const workDirectory = mkdtempSync(path.join(tmpdir(), 'eh-cli-nodb-'));
  let silent: Server;
  let connections = 0;
  const sockets = new Set<Socket>();
  let silentUrl = '';
  let refusedUrl = '';

  beforeAll(async () => {
    silent = createServer((socket) => {
      connections++;
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `postgres://walker:secret@127.0.0.1:${(silent.address() as { port: number }).port}/entitlements`;
    // A port nothing listens on: connections are refused at once.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    refusedUrl = `postgres://walker:secret@127.0.0.1:${(closed.address() as { port: number }).port}/entitlements`;
    await new Promise((resolve) => closed.close(resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    rmSync(workDirectory, { recursive: true, force: true });
  });

  /** The CLI with DATABASE_URL set, and which heavy modules it had loaded when it exited. */
  async function cliAgainst(databaseUrl: string, ...args: string[]): Promise<CliResult & { loaded: string[] }> {
    const report = path.join(workDirectory, `loaded-${Math.random().toString(36).slice(2)}.json`);
    const result = await runCli({ DATABASE_URL: databaseUrl, CLI_LOADED_MODULES_FILE: report }, args, [path.join(REPOSITORY, 'test', 'support', 'cli-loaded-modules.ts')]);
    return { ...result, loaded: JSON.parse(readFileSync(report, 'utf8')) as string[] };
  }

  function singleError(result: CliResult): { code: string; message: string } {
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    return (JSON.parse(result.stderr) as { error: { code: string; message: string } }).error;
  }

  it('says the database is unreachable, where and why, after one attempt and before loading Nest or TypeORM', async () => {
    connections = 0;
    const hung = await cliAgainst(silentUrl, 'api-keys:list', '--merchant', 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w');
    expect(hung.code).toBe(1);
    const error = singleError(hung);
    expect(error).toEqual({ code: 'DATABASE_UNREACHABLE', message: expect.stringContaining(`127.0.0.1:${new URL(silentUrl).port}/entitlements: no answer within 3 s`) });
    expect(error.message).not.toContain('secret');
    // One connection attempt, bounded by the probe's 3 s timeout, and no retry (it used to be 10, over 25 s).
    expect(connections).toBe(1);
    expect(hung.loaded).toEqual(['pg']);

    const refused = await cliAgainst(refusedUrl, 'usage', '--merchant', 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w');
    expect(refused.code).toBe(1);
    expect(singleError(refused)).toEqual({ code: 'DATABASE_UNREACHABLE', message: expect.stringMatching(/: connection refused\. Is PostgreSQL running there/) });
    expect(refused.loaded).toEqual(['pg']);
  }, 60_000);

  it('answers every usage error as JSON with exit code 2, before any connection or heavy module', async () => {
    connections = 0;
    const directory = path.join(workDirectory, 'a-directory.csv');
    mkdirSync(directory);
    const cases: Array<[string[], string, RegExp]> = [
      [['merchants:delete'], 'UNKNOWN_COMMAND', /Unknown command 'merchants:delete'/],
      [['usage', '--merchant', 'mer_1', '--verbose'], 'USAGE', /Unknown option '--verbose'/],
      [['usage', '--merchant', 'mer_1', '--plan', 'pro'], 'USAGE', /Unknown option '--plan'/],
      [['usage', '--merchant'], 'USAGE', /argument missing/],
      [['usage', 'mer_1'], 'USAGE', /Unexpected argument 'mer_1'/],
      [['api-keys:list'], 'USAGE', /^--merchant is required$/],
      [['merchants:create', '--name', 'Shop', '--plan', 'platinum'], 'USAGE', /^--plan must be one of free, growth, pro, enterprise$/],
      [['api-keys:create', '--merchant', 'mer_1', '--mode', 'production'], 'USAGE', /^--mode must be one of live, test$/],
      [['import', '--merchant', 'mer_1', '--mode', 'test', '--file', path.join(workDirectory, 'missing.csv')], 'USAGE', /^--file: cannot read '.*missing\.csv' \(no such file\)$/],
      [['import', '--merchant', 'mer_1', '--mode', 'test', '--file', directory], 'USAGE', /^--file: '.*a-directory\.csv' is not a file$/],
    ];
    for (const [args, code, message] of cases) {
      const result = await cliAgainst(silentUrl, ...args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(singleError(result)).toMatchObject({ code, message: expect.stringMatching(message) });
      expect({ args, loaded: result.loaded }).toEqual({ args, loaded: [] });
    }
    expect(connections).toBe(0);
  }, 120_000);
});
