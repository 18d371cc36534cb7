import {
  entityCatalogue,
  moduleOf,
  ownerOf,
  ownershipViolations,
  readSources,
  tablesNamedIn,
  TABLE_OWNERS,
} from '../support/table-ownership';

/**
 * DESIGN §1, one owner per table: only a module's own files name its tables, in SQL, query
 * builders, `manager.find(Entity…)` and the like; every other module goes through the owner's
 * exported service. Scans every source file under src/ (migrations aside).
 */
describe('one owner per table', () => {
  const catalogue = entityCatalogue();

  it('gives every table exactly one owner, and keeps each entity in its owner\'s folder', () => {
    const owned = Object.values(TABLE_OWNERS).flat();
    expect(new Set(owned).size).toBe(owned.length);
    const sources = readSources();
    for (const entity of catalogue) {
      const owner = ownerOf(entity.table);
      expect({ table: entity.table, owner }).toEqual({ table: entity.table, owner: expect.any(String) });
      const file = sources.find(({ source }) => new RegExp(`export class ${entity.className}\\b`).test(source));
      expect({ entity: entity.className, module: file && moduleOf(file.path) }).toEqual({ entity: entity.className, module: owner });
    }
    expect(owned.sort()).toEqual(catalogue.map((entity) => entity.table).sort());
  });

  it('finds no module naming another module\'s table, nor importing its repository', () => {
    const sources = readSources();
    expect(sources.length).toBeGreaterThan(100);
    expect(ownershipViolations(sources, catalogue)).toEqual([]);
  });

  it('sees the tables every repository uses (the scan is not blind)', () => {
    const sources = readSources();
    const repositories = sources.filter(({ path }) => path.endsWith('.repository.ts'));
    expect(repositories.length).toBeGreaterThanOrEqual(12);
    for (const { path, source } of repositories) {
      const tables = tablesNamedIn(path, source, catalogue).map(({ table }) => table);
      expect({ path, names: tables.length > 0 }).toEqual({ path, names: true });
    }
  });

  it('fails on every way a repository can reach a foreign table', () => {
    const foreign = [
      { path: 'files/raw-sql.repository.ts', source: "export const q = (m: any) => m.query('UPDATE entitlements SET usage_count = usage_count + 1 WHERE id = $1');" },
      { path: 'files/template.repository.ts', source: 'export const q = (m: any, id: string) => m.query(`SELECT * FROM products p JOIN customers c ON true WHERE p.id = ${id}`);' },
      {
        path: 'files/entity.repository.ts',
        source: "import { ProductEntity } from '../products/product.entity';\nexport const q = (m: any) => m.findOne(ProductEntity, { where: {} });",
      },
      { path: 'billing/builder.repository.ts', source: "export const q = (m: any) => m.createQueryBuilder().select('1').from('files', 'file');" },
      { path: 'entitlements/join.repository.ts', source: "export const q = (b: any) => b.innerJoinAndSelect('entitlement.customer', 'customer');" },
      { path: 'entitlements/relations.repository.ts', source: 'export const q = (m: any) => m.find(Object, { relations: { customer: true } });' },
      { path: 'customers/imports.service.ts', source: "import { EntitlementsRepository } from '../entitlements/entitlements.repository';\nexport const r = EntitlementsRepository;" },
    ];
    const found = ownershipViolations(foreign, catalogue);
    expect(found.map(({ file, table }) => `${file}: ${table}`).sort()).toEqual(
      [
        'billing/builder.repository.ts: files',
        'customers/imports.service.ts: (repository)',
        'entitlements/join.repository.ts: customers',
        'entitlements/relations.repository.ts: customers',
        'files/entity.repository.ts: products',
        'files/raw-sql.repository.ts: entitlements',
        'files/template.repository.ts: customers',
        'files/template.repository.ts: products',
      ].sort(),
    );
    // The same statements in the owner's folder are fine, and types alone are not queries.
    expect(
      ownershipViolations(
        [
          { path: 'entitlements/raw-sql.repository.ts', source: foreign[0].source },
          { path: 'files/types.service.ts', source: "import type { ProductEntity } from '../products/product.entity';\nexport type P = ProductEntity;" },
        ],
        catalogue,
      ),
    ).toEqual([]);
  });
});
