import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { storedJsonb } from '../../src/database/jsonb';
import { PRODUCT_STATUSES } from '../../src/products/product.entity';
import { grantableSql, isGrantable } from '../../src/products/product-lookup.sql';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Rules written in both TypeScript and SQL come from one definition; this runs both forms against
 * the real database and compares (issue 38: "SQL and TypeScript forms of one rule ... a test
 * proves they agree").
 */
describe('the TypeScript and SQL forms of a rule agree', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  const query = <Row>(sql: string, parameters: unknown[] = []): Promise<Row[]> => testApp.app.get(DataSource).query(sql, parameters);

  it('storedJsonb gives back what a jsonb column stores, key order and __proto__ included', async () => {
    // Keys jsonb orders differently from insertion order: lengths, bytes past ASCII, an own __proto__.
    const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'a', 'b', 'aa', 'é', 'zz', 'Z', '10', '2', ''), fc.string({ maxLength: 6 }));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.boolean(), fc.constant(null), fc.string({ maxLength: 5 }), tie('object'), fc.array(tie('tree'), { maxLength: 3 })),
      object: fc.array(fc.tuple(key, tie('tree')), { maxLength: 5 }).map((entries) => JSON.parse(`{${entries.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',')}}`) as unknown),
    }));
    const values = fc.sample(fc.array(tree, { minLength: 1, maxLength: 3 }).map((items) => JSON.parse(`{${items.map((item, index) => `"k${index}":${JSON.stringify(item)}`).join(',')},"__proto__":{"b":1,"a":2}}`) as unknown), 200);
    const rows = await query<{ stored: string }>(`SELECT value::jsonb::text AS stored FROM unnest($1::text[]) WITH ORDINALITY AS input(value, position) ORDER BY position`, [
      values.map((value) => JSON.stringify(value)),
    ]);
    values.forEach((value, index) => {
      // PostgreSQL's text has spaces after ':' and ','; parsed, both are one order of keys.
      expect(JSON.stringify(storedJsonb(value))).toBe(JSON.stringify(JSON.parse(rows[index].stored)));
    });
    expect(JSON.stringify(storedJsonb(JSON.parse('{"__proto__":{"x":1},"b":1,"aa":2}')))).toBe('{"b":1,"aa":2,"__proto__":{"x":1}}');
  });

  it('isGrantable and grantableSql say the same of every product status', async () => {
    const rows = await query<{ status: string; grantable: boolean }>(
      `SELECT product.status, ${grantableSql('product')} AS grantable FROM unnest($1::text[]) AS product(status)`,
      [[...PRODUCT_STATUSES]],
    );
    expect(rows).toHaveLength(PRODUCT_STATUSES.length);
    for (const row of rows) expect(row.grantable).toBe(isGrantable({ status: row.status as (typeof PRODUCT_STATUSES)[number] }));
    expect(rows.filter((row) => row.grantable).map((row) => row.status)).toEqual(['active']);
  });
});
