/**
 * A WHERE condition that a table's owner writes for a query of another owner's table (e.g. "the
 * customer's store id starts with…" on a list of entitlements): its SQL and its named parameters,
 * as a TypeORM query builder's `andWhere(sql, parameters)` takes them. The list's owner reads its
 * own table only; the other table is named only in SQL its owner wrote.
 */
export interface SqlCondition {
  sql: string;
  parameters: Record<string, unknown>;
}
