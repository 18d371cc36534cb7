import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe('CLI', () => {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'eh-cli-'));
  const databaseUrl = process.env.EH_TEST_DATABASE_URL;
  const databaseEnvironment: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDirectory };
  let testApp: TestApp | null = null;
  let merchantId = '';

  function cli(...args: string[]): Promise<CliResult> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', path.join(REPOSITORY, 'src', 'cli', 'main.ts'), ...args],
        {
          cwd: REPOSITORY,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, TS_NODE_PROJECT: path.join(REPOSITORY, 'tsconfig.json'), ...databaseEnvironment },
          timeout: 60_000,
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });
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
    expect(merchant).toEqual({ id: expect.stringMatching(/^mer_/), name: 'CLI merchant', plan: 'growth', created_at: expect.stringMatching(/Z$/) });
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
  });

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
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('Usage: npm run cli');
  });
});
