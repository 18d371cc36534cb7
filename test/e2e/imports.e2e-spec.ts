import { DataSource } from 'typeorm';
import type { ProductEntity } from '../../src/products/product.entity';
import { entitlementSuite, grant, insertProduct } from '../support/entitlement-fixtures';
import { eventually } from '../support/eventually';
import { bearer } from '../support/test-app';

interface ImportBody {
  id: string;
  status: string;
  total_rows: number;
  processed_rows: number;
  granted: number;
  skipped: number;
  failed: number;
  errors: Array<{ row: number; code: string; message: string }>;
  completed_at: string | null;
}

describe('entitlement imports: CSV or JSON, processed in the background', () => {
  const suite = entitlementSuite('suite');
  let timeLimited: ProductEntity;
  let archived: ProductEntity;

  const http = () => suite.testApp.http;
  const key = () => bearer(suite.tenant.testKey);
  const run = Date.now().toString(36);

  async function finished(importId: string, authorization = key()): Promise<ImportBody> {
    let latest: ImportBody | null = null;
    await eventually(async () => {
      latest = (await http().get(`/v1/entitlement-imports/${importId}`).set(authorization).expect(200)).body.data as ImportBody;
      return latest.status === 'completed';
    }, 30_000);
    return latest as unknown as ImportBody;
  }

  beforeAll(async () => {
    timeLimited = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test', { entitlement_type: 'time_limited', access_duration_days: 30 });
    archived = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test', { status: 'archived' });
  });

  it('imports a CSV: grants, skips what is held, fails bad rows with their numbers', async () => {
    await grant(suite.testApp, suite.tenant.testKey, { store_customer_id: `${run}_held`, product_id: suite.product.id });
    const later = new Date(suite.clock.now().getTime() + 90 * 24 * 3600 * 1000).toISOString();
    const csv = [
      'store_customer_id,store_product_id,expires_at,usage_limit,store_order_id,metadata',
      `${run}_a,${suite.product.store_product_id},${later},5,legacy_1,"{""plan"":""gold""}"`,
      `${run}_b,${timeLimited.store_product_id},,,,`,
      `${run}_held,${suite.product.store_product_id},,,,`,
      `${run}_c,sku_missing_${run},,,,`,
      `${run}_d,${suite.product.store_product_id},not-a-date,,,`,
      `${run}_e,${archived.store_product_id},,,,`,
      `${run}_f,${suite.product.store_product_id},,0,,`,
      `,${suite.product.store_product_id},,,,`,
      `${run}_a,${suite.product.store_product_id},,,,`,
      `${run}_g,${suite.product.store_product_id},,,,{not json}`,
    ].join('\r\n');
    const created = await http().post('/v1/entitlement-imports').set(key()).set('Content-Type', 'text/csv').send(csv).expect(202);
    expect(created.body.data).toMatchObject({ status: 'queued', total_rows: 10, processed_rows: 0, granted: 0, errors: [], completed_at: null });
    expect(created.body.data.id).toMatch(/^imp_/);

    const report = await finished(created.body.data.id);
    expect(report).toMatchObject({ status: 'completed', total_rows: 10, processed_rows: 10, granted: 2, skipped: 2, failed: 6 });
    expect(report.completed_at).not.toBeNull();
    expect(report.errors.map((error) => [error.row, error.code])).toEqual([
      [4, 'PRODUCT_NOT_FOUND'],
      [5, 'INVALID_PARAMETER'],
      [6, 'PRODUCT_ARCHIVED'],
      [7, 'INVALID_PARAMETER'],
      [8, 'MISSING_REQUIRED_FIELD'],
      [10, 'INVALID_PARAMETER'],
    ]);

    const imported = await http().get(`/v1/entitlements?store_customer_id=${run}_a&source=import`).set(key()).expect(200);
    expect(imported.body.data).toHaveLength(1);
    expect(imported.body.data[0]).toMatchObject({ source: 'import', expires_at: later, usage_limit: 5, store_order_id: 'legacy_1', metadata: { plan: 'gold' } });
    const defaults = await http().get(`/v1/entitlements?store_customer_id=${run}_b&source=import`).set(key()).expect(200);
    expect(defaults.body.data[0].expires_at).not.toBeNull();

    const events: { count: string }[] = await suite.testApp.app
      .get(DataSource)
      .query(`SELECT count(*)::text AS count FROM events WHERE type = 'import.completed' AND data->'object'->>'id' = $1`, [report.id]);
    expect(Number(events[0].count)).toBe(1);
  });

  it('imports JSON rows (typed values), lists imports and reads one', async () => {
    const rows = [
      { store_customer_id: `${run}_json_1`, product_id: suite.product.id, usage_limit: 3, metadata: { from: 'json' } },
      { store_customer_id: `${run}_json_2`, store_product_id: suite.product.store_product_id, expires_at: '' },
      { store_customer_id: `${run}_json_3`, product_id: suite.product.id, color: 'red' },
      { store_customer_id: `${run}_json_4`, product_id: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' },
    ];
    const created = await http().post('/v1/entitlement-imports').set(key()).send({ rows }).expect(202);
    const report = await finished(created.body.data.id);
    expect(report).toMatchObject({ granted: 2, skipped: 0, failed: 2 });
    expect(report.errors.map((error) => error.row)).toEqual([3, 4]);
    const list = await http().get('/v1/entitlement-imports?limit=1').set(key()).expect(200);
    expect(list.body.data[0].id).toBe(report.id);
    expect(list.body.pagination).toMatchObject({ limit: 1, has_more: true });
  });

  it('grants a batch together as single grants would: bundle children, grant rules once per customer, one event each', async () => {
    const create = async (body: Record<string, unknown>) => (await http().post('/v1/products').set(key()).send(body).expect(201)).body.data as { id: string; store_product_id: string | null };
    const included = await create({ name: 'Included', entitlement_type: 'permanent' });
    const bonus = await create({ name: 'Bonus', entitlement_type: 'permanent' });
    const chained = await create({ name: 'Chained', entitlement_type: 'permanent' });
    const bundle = await create({ name: 'Bundle', entitlement_type: 'permanent', store_product_id: `bundle_${run}`, included_product_ids: [included.id] });
    const rule = (trigger: string, granted: string, days?: number) =>
      http().post('/v1/grant-rules').set(key()).send({ trigger_product_id: trigger, grant_product_id: granted, access_duration_days: days }).expect(201);
    // Both the bundle's child and the plain product trigger the bonus: one bonus per customer.
    await rule(included.id, bonus.id, 10);
    await rule(suite.product.id, bonus.id);
    // Rule grants never chain.
    await rule(bonus.id, chained.id);
    const customers = [`${run}_set_1`, `${run}_set_2`, `${run}_set_3`];
    const rows = customers.flatMap((customer) => [
      { store_customer_id: customer, store_product_id: bundle.store_product_id },
      { store_customer_id: customer, product_id: suite.product.id },
    ]);
    const created = await http().post('/v1/entitlement-imports').set(key()).send({ rows }).expect(202);
    expect(await finished(created.body.data.id)).toMatchObject({ granted: 6, skipped: 0, failed: 0 });

    const dataSource = suite.testApp.app.get(DataSource);
    for (const customer of customers) {
      const held = (await http().get(`/v1/entitlements?store_customer_id=${customer}&limit=100`).set(key()).expect(200)).body.data as Array<Record<string, unknown>>;
      const bySource = (source: string) => held.filter((row) => row.source === source).map((row) => row.product_id).sort();
      expect({ customer, imported: bySource('import'), bundle: bySource('bundle'), rule: bySource('rule') }).toEqual({
        customer,
        imported: [bundle.id, suite.product.id].sort(),
        bundle: [included.id],
        rule: [bonus.id],
      });
      const parent = held.find((row) => row.product_id === bundle.id);
      const child = held.find((row) => row.source === 'bundle');
      const childRead = (await http().get(`/v1/entitlements/${child?.id}`).set(key()).expect(200)).body.data;
      expect(childRead.parent_entitlement_id).toBe(parent?.id);
      // The first rule in creation order decides the bonus's expiry (10 days), as in a single grant.
      const bonusRow = held.find((row) => row.source === 'rule');
      expect(new Date(bonusRow?.expires_at as string).getTime()).toBe(new Date(parent?.granted_at as string).getTime() + 10 * 24 * 3600 * 1000);
      const ids = held.map((row) => row.id as string);
      const events: Array<{ id: string; count: string }> = await dataSource.query(
        `SELECT data->'object'->>'id' AS id, count(*)::text AS count FROM events WHERE type = 'entitlement.created' AND data->'object'->>'id' = ANY($1) GROUP BY 1`,
        [ids],
      );
      expect(events.map((row) => [row.id, row.count]).sort()).toEqual(ids.map((id) => [id, '1']).sort());
    }
  });

  it('refuses bodies it cannot take: no rows, unknown fields or columns, mistyped JSON rows, 100,001 rows, over 20 MiB, other media', async () => {
    const post = () => http().post('/v1/entitlement-imports').set(key());
    expect((await post().send({}).expect(400)).body.error.code).toBe('MISSING_REQUIRED_FIELD');
    expect((await post().send({ rows: [] }).expect(400)).body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'rows' });
    expect((await post().send({ rows: [{}], extra: true }).expect(400)).body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'extra' });
    // JSON rows are typed as the document says: a row that is not an object, or a mistyped field, refuses the request.
    expect((await post().send({ rows: [21] }).expect(400)).body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'rows', message: 'rows[0] must be an object of columns (row 1)' });
    expect((await post().send({ rows: [{ store_customer_id: 'c', product_id: 'p', usage_limit: '3' }] }).expect(400)).body.error.message).toBe('rows[0].usage_limit must be an integer ≥ 1');
    expect((await post().send({ rows: [{ store_customer_id: 1001, product_id: 'p' }] }).expect(400)).body.error.message).toBe('rows[0].store_customer_id must be a string');
    expect((await post().set('Content-Type', 'text/csv').send('store_customer_id,colour\nx,red\n').expect(400)).body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'colour' });
    expect((await post().set('Content-Type', 'text/csv').send('store_customer_id\nx\n').expect(400)).body.error.code).toBe('MISSING_REQUIRED_FIELD');
    expect((await post().set('Content-Type', 'text/csv').send('store_customer_id,product_id\n"x,prod\n').expect(400)).body.error.code).toBe('INVALID_PARAMETER');
    expect((await post().set('Content-Type', 'text/plain').send('hello').expect(400)).body.error.code).toBe('INVALID_PARAMETER');

    // A refused import names its first bad row, not its last (rows are read in order, a batch at a time).
    const twoBadRows = { rows: [{ store_customer_id: 'a', product_id: 'p' }, { store_customer_id: 'b\u0000', product_id: 'p' }, { store_customer_id: 'c', product_id: 'p' }, { store_customer_id: 'd\u0000', product_id: 'p' }] };
    const firstBad = await post().send(twoBadRows).expect(400);
    expect(firstBad.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'rows[1].store_customer_id' });
    const csvBadRows = `store_customer_id,product_id\nok,p\n${'x'.repeat(300)},p\nfine,p\n\u0000,p\n`;
    const firstBadCsv = await post().set('Content-Type', 'text/csv').send(csvBadRows.replace('x'.repeat(300), 'bad\u0000')).expect(400);
    expect(firstBadCsv.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'rows[1].store_customer_id' });

    const tooMany = `store_customer_id,product_id\n${'c,p\n'.repeat(100_001)}`;
    const refused = await post().set('Content-Type', 'text/csv').send(tooMany).expect(400);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'rows' });
    expect(refused.body.error.message).toContain('100,001');
    const filler = 'x'.repeat(250);
    const oversized = `store_customer_id,product_id\n${`${filler},p\n`.repeat(Math.ceil((20 * 1024 * 1024) / 253) + 10)}`;
    const tooLarge = await post().set('Content-Type', 'text/csv').send(oversized).expect(413);
    expect(tooLarge.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 20 MiB' });
    // Elsewhere the limit stays 1 MiB.
    const big = await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'x', product_id: 'p', metadata: { text: 'x'.repeat(1024 * 1024) } }).expect(413);
    expect(big.body.error.message).toBe('The request body is larger than 1 MiB');
    const csvElsewhere = await http().post('/v1/entitlements').set(key()).set('Content-Type', 'text/csv').send('a,b\n1,2\n').expect(400);
    expect(csvElsewhere.body.error.code).toBe('INVALID_PARAMETER');
  });

  it('keeps merchants and modes apart on every route, and needs its scopes', async () => {
    const created = await http().post('/v1/entitlement-imports').set(key()).send({ rows: [{ store_customer_id: `${run}_iso`, product_id: suite.product.id }] }).expect(202);
    await finished(created.body.data.id);
    const other = await suite.testApp.createTenant();
    for (const otherKey of [bearer(other.testKey), bearer(suite.tenant.liveKey)]) {
      expect((await http().get(`/v1/entitlement-imports/${created.body.data.id}`).set(otherKey).expect(404)).body.error.code).toBe('IMPORT_NOT_FOUND');
      expect((await http().get('/v1/entitlement-imports').set(otherKey).expect(200)).body.pagination.total).toBe(0);
    }
    // The live mode's import of the same row knows no such product there: it fails, nothing is granted in test mode.
    const live = await http().post('/v1/entitlement-imports').set(bearer(suite.tenant.liveKey)).send({ rows: [{ store_customer_id: `${run}_iso_live`, product_id: suite.product.id }] }).expect(202);
    expect(await finished(live.body.data.id, bearer(suite.tenant.liveKey))).toMatchObject({ granted: 0, failed: 1 });
    expect((await http().get(`/v1/entitlements?store_customer_id=${run}_iso_live`).set(key()).expect(200)).body.pagination.total).toBe(0);
    expect((await http().get('/v1/entitlement-imports/imp_nope').set(key()).expect(404)).body.error.code).toBe('IMPORT_NOT_FOUND');
    const readOnly = await suite.testApp.createKey(suite.tenant.merchantId, 'test', ['entitlements:read']);
    expect((await http().post('/v1/entitlement-imports').set(bearer(readOnly)).send({ rows: [{}] }).expect(403)).body.error.code).toBe('INSUFFICIENT_SCOPE');
  });
});
