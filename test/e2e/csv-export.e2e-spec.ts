import { CSV_EXPORT_PAGE_SIZE } from '../../src/envelope/csv';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

/** RFC 4180 as a spreadsheet reads it: quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else cell += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      row.push(cell);
      cell = '';
    } else if (character === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index += 1;
    } else cell += character;
  }
  expect(cell).toBe('');
  expect(row).toEqual([]);
  return rows;
}

/**
 * CSV export of a list (issue 34 item 5): `Accept: text/csv` on GET /v1/entitlements and GET
 * /v1/customers answers every page of the list with the same filters, streamed, a header row
 * first; cells quoted per RFC 4180 and guarded against formulas (CSV injection).
 */
describe('CSV export of lists', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let productId: string;
  const key = () => bearer(tenant.testKey);
  const csv = (path: string, query: Record<string, string>, as = key()) => testApp.http.get(path).query(query).set(as).set('Accept', 'text/csv');
  const ROWS = CSV_EXPORT_PAGE_SIZE + 7;

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant('pro');
    other = await testApp.createTenant();
    productId = (await testApp.http.post('/v1/products').set(key()).send({ name: 'Exported, "quoted"\nbook', entitlement_type: 'permanent' }).expect(201)).body.data.id;
    for (let start = 0; start < ROWS; start += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, ROWS - start) }, (_, offset) =>
          testApp.http.post('/v1/entitlements').set(key()).send({ store_customer_id: `bulk_${String(start + offset).padStart(4, '0')}`, product_id: productId }).expect(201),
        ),
      );
    }
    const othersProduct = (await testApp.http.post('/v1/products').set(bearer(other.testKey)).send({ name: 'Other', entitlement_type: 'permanent' }).expect(201)).body.data.id;
    await testApp.http.post('/v1/entitlements').set(bearer(other.testKey)).send({ store_customer_id: 'bulk_other', product_id: othersProduct }).expect(201);
  });
  afterAll(() => testApp.close());

  it('streams every page of the entitlements list, with the list’s filters, as one file with a header row', async () => {
    const response = await csv('/v1/entitlements', { product_id: productId }).expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="entitlements.csv"');
    const [header, ...rows] = parseCsv(response.text);
    expect(header).toEqual([
      'id', 'customer_id', 'store_customer_id', 'product_id', 'product_name', 'status', 'granted_at', 'expires_at', 'revoked_at', 'revocation_reason',
      'usage_count', 'usage_limit', 'source', 'store_order_id', 'metadata', 'test_clock', 'created_at', 'updated_at',
    ]);
    // More rows than one page of the export reads, and more than a client's page: every one, once, newest first.
    expect(rows).toHaveLength(ROWS);
    const storeIds = rows.map((row) => row[header.indexOf('store_customer_id')]);
    expect(new Set(storeIds).size).toBe(ROWS);
    expect(storeIds).not.toContain('bulk_other');
    const createdAt = rows.map((row) => row[header.indexOf('created_at')]);
    expect([...createdAt].sort().reverse()).toEqual(createdAt);
    // The product's name keeps its comma, quotes and line break inside one cell.
    expect(rows[0][header.indexOf('product_name')]).toBe('Exported, "quoted"\nbook');
    expect(response.text).toContain('"Exported, ""quoted""\nbook"');
    expect(rows[0][header.indexOf('metadata')]).toBe('{}');

    const filtered = parseCsv((await csv('/v1/entitlements', { store_customer_id: 'bulk_000' }).expect(200)).text);
    expect(filtered.slice(1).map((row) => row[2]).sort()).toEqual(Array.from({ length: 10 }, (_, index) => `bulk_000${index}`));
  });

  it('streams every customer, and answers JSON as before without Accept: text/csv', async () => {
    const response = await csv('/v1/customers', { search: 'bulk_' }).expect(200);
    const [header, ...rows] = parseCsv(response.text);
    expect(header).toEqual(['id', 'store_customer_id', 'test_clock', 'created_at']);
    expect(rows).toHaveLength(ROWS);
    expect(response.headers['content-disposition']).toBe('attachment; filename="customers.csv"');
    const json = await testApp.http.get('/v1/customers').query({ search: 'bulk_' }).set(key()).expect(200);
    expect(json.body.pagination.total).toBe(ROWS);
    expect(json.body.data).toHaveLength(25);
  });

  it('prefixes cells that a spreadsheet would run as a formula', async () => {
    const dangerous = ['=HYPERLINK("http://evil")', '+1+1', '-2+3', '@SUM(A1)'];
    for (const storeId of dangerous) {
      await testApp.http.post('/v1/entitlements').set(key()).send({ store_customer_id: storeId, product_id: productId, metadata: { note: 'a,b' } }).expect(201);
    }
    const [header, ...rows] = parseCsv((await csv('/v1/customers', {}).expect(200)).text);
    const exported = rows.map((row) => row[header.indexOf('store_customer_id')]);
    for (const storeId of dangerous) expect(exported).toContain(`'${storeId}`);
    expect(exported.some((cell) => /^[=+\-@]/.test(cell))).toBe(false);
    const entitlements = parseCsv((await csv('/v1/entitlements', { store_customer_id: '=' }).expect(200)).text);
    expect(entitlements[1][entitlements[0].indexOf('metadata')]).toBe('{"note":"a,b"}');
  });

  it('refuses as the list does: a missing filter, a bad cursor, no key, no scope, another tenant', async () => {
    expect((await csv('/v1/entitlements', {}).expect(400)).body.error.code).toBe('FILTER_REQUIRED');
    expect((await csv('/v1/customers', { created_after: 'yesterday' }).expect(400)).body.error.code).toBe('INVALID_PARAMETER');
    await testApp.http.get('/v1/customers').set('Accept', 'text/csv').expect(401);
    const productsOnly = await testApp.createKey(tenant.merchantId, 'test', ['products:read']);
    expect((await csv('/v1/customers', {}, bearer(productsOnly)).expect(403)).body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await csv('/v1/entitlements', { product_id: productId }, bearer(productsOnly)).expect(403)).body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect(parseCsv((await csv('/v1/entitlements', { product_id: productId }, bearer(other.testKey)).expect(200)).text)).toHaveLength(1);
    expect(parseCsv((await csv('/v1/customers', { search: 'bulk_' }, bearer(tenant.liveKey)).expect(200)).text)).toHaveLength(1);
  });
  it('streams every page of the audit log, the actor and object in columns of their own, only with audit:read', async () => {
    const auditKey = bearer(await testApp.createKey(tenant.merchantId, 'test', ['audit:read']));
    const response = await csv('/v1/audit-log', { action: 'entitlements.create' }, auditKey).expect(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="audit-log.csv"');
    const [header, ...rows] = parseCsv(response.text);
    expect(header).toEqual(['id', 'created_at', 'actor_type', 'actor_id', 'actor_label', 'action', 'object_type', 'object_id', 'mode', 'request_id', 'client_address', 'status']);
    // One row per grant of this merchant (beforeAll's and the other tests'), across more than one export page, none of the other merchant's.
    expect(rows.length).toBeGreaterThan(CSV_EXPORT_PAGE_SIZE);
    expect(new Set(rows.map((row) => row[7])).size).toBe(rows.length);
    const entitlementIds = new Set<string>();
    for (let cursor: string | null | undefined = undefined; ; ) {
      const page: { body: { data: Array<{ id: string }>; pagination: { next_cursor: string | null } } } = await testApp.http.get('/v1/entitlements').query({ product_id: productId, limit: '100', ...(cursor ? { cursor } : {}) }).set(key()).expect(200);
      for (const entitlement of page.body.data) entitlementIds.add(entitlement.id);
      cursor = page.body.pagination.next_cursor;
      if (!cursor) break;
    }
    expect(entitlementIds.size).toBeGreaterThanOrEqual(ROWS);
    const exported = new Set(rows.map((row) => row[7]));
    expect([...entitlementIds].every((id) => exported.has(id))).toBe(true);
    expect(rows[0]).toEqual([expect.stringMatching(/^aud_/), expect.any(String), 'api_key', expect.any(String), expect.any(String), 'entitlements.create', 'entitlement', expect.stringMatching(/^ent_/), 'test', expect.any(String), expect.any(String), 'succeeded']);
    const withoutAudit = bearer(await testApp.createKey(tenant.merchantId, 'test', ['entitlements:read', 'customers:read']));
    expect((await csv('/v1/audit-log', {}, withoutAudit).expect(403)).body.error.code).toBe('INSUFFICIENT_SCOPE');
  });
});
