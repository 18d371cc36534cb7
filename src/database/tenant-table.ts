import { EntityManager, EntityTarget, FindOptionsOrder, FindOptionsWhere, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { ParameterType, WritePart } from './combined-statement';
import { API_MODES, ApiMode, Tenant } from './tenant';

/** Rows per multi-row INSERT: PostgreSQL takes at most 65,535 parameters in one statement. */
export const INSERT_CHUNK_ROWS = 1_000;

/** The tenant columns of every merchant-owned table. */
export interface TenantColumns {
  merchant_id: string;
  mode: ApiMode;
}

/** A row's fields without the tenant columns: the tenant is always the separate parameter. */
export type WithoutTenant<T> = Omit<T, keyof TenantColumns>;

/** Throws unless `tenant` names a merchant and a mode: no tenant-scoped statement runs without one. */
export function assertTenant(tenant: unknown): asserts tenant is Tenant {
  const candidate = tenant as Partial<Tenant> | null | undefined;
  if (
    !candidate ||
    typeof candidate.merchantId !== 'string' ||
    !candidate.merchantId.startsWith('mer_') ||
    !API_MODES.includes(candidate.mode as ApiMode)
  ) {
    throw new Error('A tenant-scoped query needs the tenant (merchant id and mode)');
  }
}

function refuseTenantColumns(fields: object): void {
  if ('merchant_id' in fields || 'mode' in fields) {
    throw new Error('merchant_id and mode come from the tenant parameter, never from the fields');
  }
}

/**
 * One merchant-owned table, seen through a tenant: every statement it builds carries
 * `merchant_id = … AND mode = …`, written here once. Repositories hold one per table; the tenant
 * is a required parameter of each method and the field arguments' types leave the tenant columns
 * out, so a query without the tenant can't be written through it (test/e2e/tenant-table.e2e-spec.ts
 * checks both at runtime, test/unit/tenant-table.types.ts at compile time).
 *
 * `manager` is the transaction's (`tx.manager`) inside a transaction, or the pool's for a read
 * outside one.
 */
export class TenantTable<Entity extends TenantColumns & ObjectLiteral> {
  constructor(
    private readonly target: EntityTarget<Entity>,
    readonly alias: string,
  ) {}

  /**
   * A SELECT limited to the tenant's rows. Conditions added with `where` or `andWhere` narrow it
   * further (`where` would otherwise replace the tenant condition); `orWhere` would widen it past
   * the tenant and throws.
   */
  select(manager: EntityManager, tenant: Tenant): SelectQueryBuilder<Entity> {
    assertTenant(tenant);
    const query = manager
      .createQueryBuilder(this.target, this.alias)
      .where(`${this.alias}.merchant_id = :tenantMerchantId AND ${this.alias}.mode = :tenantMode`, {
        tenantMerchantId: tenant.merchantId,
        tenantMode: tenant.mode,
      });
    const narrow = query.andWhere.bind(query);
    const widen = () => {
      throw new Error(`orWhere on a tenant-scoped query of ${this.alias} would reach other tenants' rows; use andWhere(new Brackets(…))`);
    };
    Object.assign(query, { where: narrow, orWhere: widen, orWhereInIds: widen });
    return query;
  }

  async findOne(
    manager: EntityManager,
    tenant: Tenant,
    where: WithoutTenant<FindOptionsWhere<Entity>>,
    options: { lock?: boolean } = {},
  ): Promise<Entity | null> {
    return manager.findOne(this.target, {
      where: this.scoped(tenant, where),
      ...(options.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  async find(
    manager: EntityManager,
    tenant: Tenant,
    where: WithoutTenant<FindOptionsWhere<Entity>>,
    order?: FindOptionsOrder<Entity>,
  ): Promise<Entity[]> {
    return manager.find(this.target, { where: this.scoped(tenant, where), ...(order ? { order } : {}) });
  }

  /** The row with this id, locked (SELECT … FOR UPDATE) until the transaction ends. */
  async lockById(manager: EntityManager, tenant: Tenant, id: string): Promise<Entity | null> {
    return this.select(manager, tenant).andWhere(`${this.alias}.id = :lockedId`, { lockedId: id }).setLock('pessimistic_write').getOne();
  }

  /**
   * The rows with these ids, locked in id order (DESIGN §13): two transactions that lock
   * overlapping sets this way queue behind each other instead of deadlocking.
   */
  async lockByIds(manager: EntityManager, tenant: Tenant, ids: readonly string[]): Promise<Entity[]> {
    if (ids.length === 0) return [];
    return this.select(manager, tenant)
      .andWhere(`${this.alias}.id IN (:...lockedIds)`, { lockedIds: [...new Set(ids)] })
      .orderBy(`${this.alias}.id`, 'ASC')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** Inserts a row of the tenant and returns it with its generated columns (created_at, …). */
  async insert(manager: EntityManager, tenant: Tenant, fields: WithoutTenant<QueryDeepPartialEntity<Entity>>): Promise<Entity> {
    assertTenant(tenant);
    refuseTenantColumns(fields);
    const row = manager.create(this.target, { ...fields, merchant_id: tenant.merchantId, mode: tenant.mode } as unknown as Entity);
    await manager.insert(this.target, row as QueryDeepPartialEntity<Entity>);
    return row;
  }

  /** Inserts rows of the tenant in multi-row statements (in order) and returns them as inserted. */
  async insertMany(manager: EntityManager, tenant: Tenant, fields: ReadonlyArray<WithoutTenant<QueryDeepPartialEntity<Entity>>>): Promise<Entity[]> {
    assertTenant(tenant);
    fields.forEach(refuseTenantColumns);
    const rows = fields.map((row) => manager.create(this.target, { ...row, merchant_id: tenant.merchantId, mode: tenant.mode } as unknown as Entity));
    for (let start = 0; start < rows.length; start += INSERT_CHUNK_ROWS) {
      await manager.insert(this.target, rows.slice(start, start + INSERT_CHUNK_ROWS) as QueryDeepPartialEntity<Entity>[]);
    }
    return rows;
  }

  /**
   * New rows of the tenant as one INSERT part (`name`), every column of the entity written from
   * the row (a column the row leaves undefined takes its default), each value typed by its column:
   * the one INSERT of this table that a combined write embeds and a transaction runs alone
   * (`runAlone`), so both paths write the same columns the same way.
   */
  insertRowsPart(manager: EntityManager, tenant: Tenant, rows: ReadonlyArray<Partial<WithoutTenant<Entity>>>, name: string): WritePart {
    assertTenant(tenant);
    rows.forEach(refuseTenantColumns);
    if (rows.length === 0) throw new Error(`No rows to insert into ${this.alias}`);
    const metadata = manager.connection.getMetadata(this.target);
    const { tableName } = metadata;
    // A generated column (GENERATED ALWAYS AS … STORED) is the database's to write.
    const columns = metadata.columns.filter((column) => column.generatedType === undefined);
    // Rows are written by column name: an entity whose property names a column otherwise has no insert here.
    const renamed = columns.find((column) => column.propertyName !== column.databaseName);
    if (renamed) throw new Error(`${tableName}.${renamed.databaseName} is the property ${renamed.propertyName}: insertRowsPart writes rows by column name`);
    const tenantColumns: Record<string, string> = { merchant_id: tenant.merchantId, mode: tenant.mode };
    return {
      name,
      render: (parameters) => {
        const values = rows.map((row) => {
          const fields = row as Record<string, unknown>;
          const rendered = columns.map((column) => {
            const value = column.databaseName in tenantColumns ? tenantColumns[column.databaseName] : fields[column.propertyName];
            return value === undefined ? 'DEFAULT' : parameters.typed(value, parameterTypeOf(column.type, column.isArray));
          });
          return `(${rendered.join(', ')})`;
        });
        return `INSERT INTO ${tableName} (${columns.map((column) => column.databaseName).join(', ')}) VALUES ${values.join(', ')} RETURNING id`;
      },
    };
  }

  /** Updates the tenant's rows matching `where`; returns how many changed. */
  async update(
    manager: EntityManager,
    tenant: Tenant,
    where: WithoutTenant<FindOptionsWhere<Entity>>,
    changes: WithoutTenant<QueryDeepPartialEntity<Entity>>,
  ): Promise<number> {
    refuseTenantColumns(changes);
    const result = await manager.update(this.target, this.scoped(tenant, where), changes as QueryDeepPartialEntity<Entity>);
    return result.affected ?? 0;
  }

  /** Updates the tenant's row with this id and returns it as updated (one statement, RETURNING), or null when there is none. */
  async updateById(manager: EntityManager, tenant: Tenant, id: string, changes: WithoutTenant<QueryDeepPartialEntity<Entity>>): Promise<Entity | null> {
    assertTenant(tenant);
    refuseTenantColumns(changes);
    const result = await manager
      .createQueryBuilder()
      .update(this.target)
      .set(changes as QueryDeepPartialEntity<Entity>)
      .where('merchant_id = :tenantMerchantId AND mode = :tenantMode AND id = :updatedId', {
        tenantMerchantId: tenant.merchantId,
        tenantMode: tenant.mode,
        updatedId: id,
      })
      .returning('*')
      .execute();
    const rows = result.raw as Entity[];
    return rows.length === 0 ? null : manager.create(this.target, rows[0]);
  }

  async increment(
    manager: EntityManager,
    tenant: Tenant,
    where: WithoutTenant<FindOptionsWhere<Entity>>,
    column: Exclude<keyof Entity & string, keyof TenantColumns>,
    by: number,
  ): Promise<void> {
    await manager.increment(this.target, this.scoped(tenant, where), column, by);
  }

  async delete(manager: EntityManager, tenant: Tenant, where: WithoutTenant<FindOptionsWhere<Entity>>): Promise<number> {
    const result = await manager.delete(this.target, this.scoped(tenant, where));
    return result.affected ?? 0;
  }

  private scoped(tenant: Tenant, where: WithoutTenant<FindOptionsWhere<Entity>>): FindOptionsWhere<Entity> {
    assertTenant(tenant);
    refuseTenantColumns(where);
    return { ...where, merchant_id: tenant.merchantId, mode: tenant.mode } as FindOptionsWhere<Entity>;
  }
}

/** The placeholder type of a column (TypeORM's type name), for the typed INSERT of insertRowsPart. */
function parameterTypeOf(type: unknown, isArray: boolean): ParameterType {
  const name = typeof type === 'string' ? type : String(type);
  if (isArray) {
    if (name === 'text') return 'text[]';
    throw new Error(`No placeholder type for an array of ${name}`);
  }
  switch (name) {
    case 'text':
    case 'integer':
    case 'bigint':
    case 'boolean':
    case 'timestamptz':
    case 'jsonb':
    case 'json':
      return name;
    default:
      throw new Error(`No placeholder type for a column of type ${name}`);
  }
}
