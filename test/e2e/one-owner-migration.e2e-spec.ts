import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../../src/app-entities';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { EmbeddedDatabase } from '../../src/database/embedded-database';
import { MIGRATIONS } from '../../src/database/migrations';
import { OneOwnerPerTable1795461964949 } from '../../src/database/migrations/1795461964949-OneOwnerPerTable';

/**
 * The OneOwnerPerTable migration moves existing data: product–file links from
 * products.fulfillment_config.file_ids and files.product_id into product_files, pending uploads'
 * reservations into storage_reservations, and drops idempotency claims that never completed. Run
 * on a database of its own (a fresh PostgreSQL database, or an in-memory embedded one) holding
 * rows in the old shape; `down` puts the old shape back.
 */
describe('migration OneOwnerPerTable', () => {
  let dataSource: DataSource;
  let cleanUp: () => Promise<void>;
  const migrationIndex = MIGRATIONS.indexOf(OneOwnerPerTable1795461964949);
  const merchant = 'mer_01jd8x3k2m4n5p6q7r8s9tmig1';
  const otherMerchant = 'mer_01jd8x3k2m4n5p6q7r8s9tmig2';

  /** Runs one direction of the migration under test in a transaction, as TypeORM does. */
  async function migrate(direction: 'up' | 'down'): Promise<void> {
    const runner = dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      await new OneOwnerPerTable1795461964949()[direction](runner);
      await runner.commitTransaction();
    } catch (error) {
      await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }

  beforeAll(async () => {
    expect(migrationIndex).toBeGreaterThan(0);
    const serverUrl = process.env.EH_TEST_SERVER_URL;
    let url: string;
    let embedded: EmbeddedDatabase | null = null;
    if (serverUrl) {
      const name = `${process.env.EH_TEST_DATABASE_NAME}_migration`;
      const admin = new Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      const parsed = new URL(serverUrl);
      parsed.pathname = `/${name}`;
      url = parsed.toString();
      cleanUp = async () => {
        const dropper = new Client({ connectionString: serverUrl });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await dropper.end();
      };
    } else {
      embedded = await EmbeddedDatabase.start(null);
      url = embedded.url;
      cleanUp = () => (embedded as EmbeddedDatabase).stop();
    }
    // The schema as it was before the migration, with rows in the old shape. (One data source
    // throughout: the embedded database's socket serves one connection.)
    dataSource = await new DataSource({ ...buildDataSourceOptions(url, embedded !== null, ENTITIES), migrations: MIGRATIONS.slice(0, migrationIndex) }).initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    const before = dataSource;
    await before.query(`INSERT INTO merchants (id, name, plan) VALUES ($1, 'Migrated', 'pro'), ($2, 'Other', 'free')`, [merchant, otherMerchant]);
    const file = (id: string, owner: string, status: string, productId: string | null, expires: string, created: string) =>
      before.query(
        `INSERT INTO files (id, merchant_id, mode, file_name, file_size, mime_type, object_key, upload_status, product_id, upload_expires_at, created_at)
         VALUES ($1, $2, 'test', $1 || '.pdf', 100, 'application/pdf', $2 || '/test/' || $1, $3, $4, now() + $5::interval, now() + $6::interval)`,
        [id, owner, status, productId, expires, created],
      );
    const product = (id: string, config: object, updated: string) =>
      before.query(
        `INSERT INTO products (id, merchant_id, mode, name, entitlement_type, fulfillment_config, updated_at)
         VALUES ($1, $2, 'test', $1, 'permanent', $3::jsonb, now() + $4::interval)`,
        [id, merchant, JSON.stringify(config), updated],
      );
    await file('file_uploaded', merchant, 'CONFIRMED', 'prod_one', '-1 hour', '-3 days');
    await file('file_patched', merchant, 'CONFIRMED', null, '-1 hour', '-2 days');
    await file('file_unlinked', merchant, 'CONFIRMED', 'prod_two', '-1 hour', '-2 days');
    await file('file_pending', merchant, 'PENDING', null, '+30 minutes', '-30 minutes');
    await file('file_lapsed', merchant, 'PENDING', null, '-5 minutes', '-65 minutes');
    await file('file_foreign', otherMerchant, 'CONFIRMED', null, '-1 hour', '-2 days');
    // prod_one lists its files out of creation order, a repeat, another merchant's file and an unknown id.
    await product(
      'prod_one',
      { delivery_method: 'FILE', file_ids: ['file_patched', 'file_uploaded', 'file_patched', 'file_foreign', 'file_gone'], access_url: null, access_instructions: null },
      '-1 day',
    );
    // prod_two also delivers file_uploaded; file_unlinked named prod_two on upload but was PATCHed away since.
    await product('prod_two', { delivery_method: 'FILE', file_ids: ['file_uploaded'], access_url: null, access_instructions: null }, '-1 hour');
    await product('prod_url', { delivery_method: 'URL', file_ids: [], access_url: 'https://example.com/a', access_instructions: null }, '-1 hour');
    await before.query(
      `INSERT INTO idempotency_keys (merchant_id, mode, key, request_hash, state, lock_token, locked_at, response_status, response_body)
       VALUES ($1, 'test', 'done', 'h1', 'completed', 't1', now(), 201, '{"data":{}}'), ($1, 'test', 'stuck', 'h2', 'in_progress', 't2', now(), NULL, NULL)`,
      [merchant],
    );
    await migrate('up');
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await cleanUp?.();
  });

  it('moves file_ids into product_files, in order, dropping repeats and files that are not the tenant\'s', async () => {
    const links = (await dataSource.query(`SELECT product_id, file_id, position FROM product_files ORDER BY product_id, position`)) as Array<{
      product_id: string;
      file_id: string;
      position: number;
    }>;
    expect(links.map(({ product_id, file_id }) => `${product_id}:${file_id}`)).toEqual(['prod_one:file_patched', 'prod_one:file_uploaded', 'prod_two:file_uploaded']);
    expect(links.filter((link) => link.product_id === 'prod_one').map((link) => link.position)).toEqual([0, 1]);
    const configs = (await dataSource.query(`SELECT id, fulfillment_config FROM products ORDER BY id`)) as Array<{ id: string; fulfillment_config: Record<string, unknown> }>;
    for (const { fulfillment_config } of configs) expect(fulfillment_config).not.toHaveProperty('file_ids');
    expect(configs.find((config) => config.id === 'prod_url')?.fulfillment_config).toEqual({
      delivery_method: 'URL',
      access_url: 'https://example.com/a',
      access_instructions: null,
    });
  });

  it('keeps the product upload-url named as the file\'s first link, and drops files.product_id', async () => {
    const first = (await dataSource.query(
      `SELECT DISTINCT ON (file_id) file_id, product_id FROM product_files ORDER BY file_id, created_at, product_id`,
    )) as Array<{ file_id: string; product_id: string }>;
    expect(Object.fromEntries(first.map((row) => [row.file_id, row.product_id]))).toEqual({ file_patched: 'prod_one', file_uploaded: 'prod_one' });
    const columns = (await dataSource.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'files' AND column_name = 'product_id'`)) as unknown[];
    expect(columns).toEqual([]);
  });

  it('moves the live reservations of pending uploads to billing, and forgets idempotency claims that never completed', async () => {
    const reservations = (await dataSource.query(`SELECT file_id, merchant_id, mode, bytes FROM storage_reservations`)) as Array<Record<string, unknown>>;
    expect(reservations.map((row) => ({ ...row, bytes: Number(row.bytes) }))).toEqual([{ file_id: 'file_pending', merchant_id: merchant, mode: 'test', bytes: 100 }]);
    const keys = (await dataSource.query(`SELECT key, response_status FROM idempotency_keys ORDER BY key`)) as Array<{ key: string; response_status: number }>;
    expect(keys).toEqual([{ key: 'done', response_status: 201 }]);
  });

  it('puts the old shape back on the way down', async () => {
    await migrate('down');
    const configs = (await dataSource.query(`SELECT id, fulfillment_config->'file_ids' AS file_ids FROM products ORDER BY id`)) as Array<{ id: string; file_ids: string[] }>;
    expect(configs).toEqual([
      { id: 'prod_one', file_ids: ['file_patched', 'file_uploaded'] },
      { id: 'prod_two', file_ids: ['file_uploaded'] },
      { id: 'prod_url', file_ids: [] },
    ]);
    const files = (await dataSource.query(`SELECT id, product_id FROM files WHERE product_id IS NOT NULL ORDER BY id`)) as Array<{ id: string; product_id: string }>;
    expect(files).toEqual([
      { id: 'file_patched', product_id: 'prod_one' },
      { id: 'file_uploaded', product_id: 'prod_one' },
    ]);
    await migrate('up');
  });
});
