/**
 * Compile-time half of the tenant-scoping test (the runtime half is
 * test/e2e/tenant-table.e2e-spec.ts): each statement below tries to write a query without the
 * tenant, or to pick the tenant columns itself, and must not compile. `tsc` (npm run lint) fails
 * on any `@ts-expect-error` that no longer finds its error, so a helper or repository that starts
 * accepting one of these breaks the build. Never executed.
 */
import type { EntityManager } from 'typeorm';
import type { Tenant } from '../../src/database/tenant';
import { TenantTable } from '../../src/database/tenant-table';
import type { Reader, Transaction } from '../../src/database/transaction';
import type { EntitlementsRepository } from '../../src/entitlements/entitlements.repository';
import type { FilesRepository } from '../../src/files/files.repository';
import { ProductEntity } from '../../src/products/product.entity';
import type { ProductsRepository } from '../../src/products/products.repository';

export function queriesWithoutTheTenantDoNotCompile(
  manager: EntityManager,
  tenant: Tenant,
  db: Reader,
  tx: Transaction,
  products: ProductsRepository,
  entitlements: EntitlementsRepository,
  files: FilesRepository,
): void {
  const table = new TenantTable(ProductEntity, 'product');

  // @ts-expect-error: a tenant-scoped SELECT needs the tenant.
  void table.select(manager);
  // @ts-expect-error: the tenant must be a Tenant, not a bare merchant id.
  void table.findOne(manager, 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w', { id: 'prod_x' });
  // @ts-expect-error: conditions cannot name merchant_id (the tenant parameter does).
  void table.findOne(manager, tenant, { id: 'prod_x', merchant_id: 'mer_other' });
  // @ts-expect-error: nor mode.
  void table.find(manager, tenant, { mode: 'live' });
  // @ts-expect-error: an insert takes its tenant columns from the tenant, never from the fields.
  void table.insert(manager, tenant, { id: 'prod_x', name: 'x', merchant_id: 'mer_other' });
  // @ts-expect-error: an update cannot move a row to another tenant.
  void table.update(manager, tenant, { id: 'prod_x' }, { mode: 'live' });
  // @ts-expect-error: lock-by-id needs the tenant.
  void table.lockById(manager, 'prod_x');

  // Repositories: the tenant is a required parameter of every method, after the transaction or reader.
  // @ts-expect-error: no tenant.
  void products.findById(db, 'prod_x');
  // @ts-expect-error: no transaction (a lock runs inside one).
  void products.lockById(tenant, 'prod_x');
  // @ts-expect-error: a reader is not a transaction: writes and locks need `tx`.
  void entitlements.lockById(db, tenant, 'ent_x');
  // @ts-expect-error: no tenant.
  void entitlements.findById(tx, 'ent_x');
  // @ts-expect-error: no tenant.
  void files.existingIds(db, ['file_x']);
  // @ts-expect-error: the tenant comes first after the reader, not last.
  void files.findById(db, 'file_x', tenant);
}
