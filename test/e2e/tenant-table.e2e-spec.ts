import { DataSource } from 'typeorm';
import type { Tenant } from '../../src/database/tenant';
import { TenantTable } from '../../src/database/tenant-table';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { generateId } from '../../src/ids/id';
import { ProductEntity } from '../../src/products/product.entity';
import { ProductsRepository } from '../../src/products/products.repository';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Runtime half of the tenant-scoping test (test/unit/tenant-table.types.ts is the compile-time
 * half): through TenantTable, a statement without a valid tenant throws before it reaches the
 * database, and a statement with one never sees or changes another tenant's rows, whatever
 * conditions are added to it.
 */
describe('tenant-scoped tables', () => {
  let testApp: TestApp;
  let mine: Tenant;
  let theirs: Tenant;
  let myProduct: string;
  let theirProduct: string;
  const table = new TenantTable(ProductEntity, 'product');
  const manager = () => testApp.app.get(DataSource).manager;

  beforeAll(async () => {
    testApp = await createTestApp();
    mine = { merchantId: (await testApp.createTenant()).merchantId, mode: 'test' };
    theirs = { merchantId: (await testApp.createTenant()).merchantId, mode: 'test' };
    const insert = async (tenant: Tenant) =>
      (
        await table.insert(manager(), tenant, {
          id: generateId('prod'),
          name: 'Scoped',
          entitlement_type: 'permanent',
          fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/a', access_instructions: null },
        })
      ).id;
    myProduct = await insert(mine);
    theirProduct = await insert(theirs);
  });
  afterAll(() => testApp.close());

  it('refuses to build a statement without a valid tenant', async () => {
    const invalid = [undefined, null, {}, { merchantId: mine.merchantId }, { merchantId: '', mode: 'test' }, { merchantId: mine.merchantId, mode: 'sandbox' }];
    for (const tenant of invalid) {
      expect(() => table.select(manager(), tenant as unknown as Tenant)).toThrow('needs the tenant');
      await expect(table.findOne(manager(), tenant as unknown as Tenant, { id: myProduct })).rejects.toThrow('needs the tenant');
      await expect(table.lockById(manager(), tenant as unknown as Tenant, myProduct)).rejects.toThrow('needs the tenant');
      await expect(table.update(manager(), tenant as unknown as Tenant, { id: theirProduct }, { name: 'hijacked' })).rejects.toThrow('needs the tenant');
    }
    // Through a repository too: its methods pass the tenant they were given.
    const products = testApp.app.get(ProductsRepository);
    await expect(products.findById(testApp.app.get(UnitOfWork).pool, undefined as unknown as Tenant, theirProduct)).rejects.toThrow('needs the tenant');
  });

  it('refuses tenant columns among the conditions and fields', async () => {
    const other = { merchant_id: theirs.merchantId };
    await expect(table.findOne(manager(), mine, other as never)).rejects.toThrow('come from the tenant parameter');
    await expect(table.update(manager(), mine, { id: myProduct }, { mode: 'live' } as never)).rejects.toThrow('come from the tenant parameter');
    await expect(table.insert(manager(), mine, { id: generateId('prod'), ...other } as never)).rejects.toThrow('come from the tenant parameter');
  });

  it('keeps every statement inside the tenant, whatever is added to it', async () => {
    // `where` would replace a query builder's conditions; here it narrows them.
    const replaced = await table.select(manager(), mine).where('product.id IN (:...ids)', { ids: [myProduct, theirProduct] }).getMany();
    expect(replaced.map((product) => product.id)).toEqual([myProduct]);
    expect(table.select(manager(), mine).getQuery()).toContain('WHERE "product"."merchant_id" = :tenantMerchantId AND "product"."mode" = :tenantMode');
    // `orWhere` would widen them past the tenant.
    expect(() => table.select(manager(), mine).orWhere('product.id = :id', { id: theirProduct })).toThrow('other tenants');
    // Another tenant's id is invisible, unlockable and unchangeable.
    expect(await table.findOne(manager(), mine, { id: theirProduct })).toBeNull();
    expect(await testApp.app.get(UnitOfWork).run((tx) => table.lockById(tx.manager, mine, theirProduct))).toBeNull();
    expect(await table.update(manager(), mine, { id: theirProduct }, { name: 'hijacked' })).toBe(0);
    expect(await table.delete(manager(), mine, { id: theirProduct })).toBe(0);
    expect((await table.findOne(manager(), theirs, { id: theirProduct }))?.name).toBe('Scoped');
    // The other mode of the same merchant is another tenant too.
    expect(await table.findOne(manager(), { ...mine, mode: 'live' }, { id: myProduct })).toBeNull();
  });

  it('writes the tenant columns from the tenant', async () => {
    const inserted = await table.insert(manager(), mine, {
      id: generateId('prod'),
      name: 'Written',
      entitlement_type: 'permanent',
      fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/a', access_instructions: null },
    });
    expect(inserted).toMatchObject({ merchant_id: mine.merchantId, mode: 'test' });
    expect(inserted.created_at).toBeInstanceOf(Date);
    const [row] = (await testApp.app.get(DataSource).query('SELECT merchant_id, mode FROM products WHERE id = $1', [inserted.id])) as Array<{ merchant_id: string; mode: string }>;
    expect(row).toEqual({ merchant_id: mine.merchantId, mode: 'test' });
  });
});
