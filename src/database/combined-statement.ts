import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * A piece of one combined statement, written by the repository that owns the tables it names
 * (DESIGN §1): its SQL numbers its own parameters from $1; the statement renumbers them. A request
 * whose work is a fixed set of reads, or of writes, sends each set as one statement: one round
 * trip instead of one per repository (bench/README.md, "Downloads: round trips").
 */
export interface StatementPart {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/**
 * A scalar subquery yielding one JSON value (or null), and how its owner reads that value (with
 * the manager the read ran on, for entities built from JSON).
 */
export interface ReadPart<T> extends StatementPart {
  parse(value: unknown, manager: EntityManager): T;
}

/**
 * A data-modifying CTE. `refusal` names the outcome when it yields no row: the whole statement is
 * then rolled back (by the `refuse_statement` function, migration DownloadsInOneStatement) and
 * `StatementRefused` carries that name.
 */
export interface WritePart extends StatementPart {
  readonly name: string;
  readonly refusal?: string;
}

/** SQLSTATE raised by `refuse_statement(text)`: a combined write refused by one of its parts. */
export const STATEMENT_REFUSED_SQLSTATE = 'EH001';

/** A combined write rolled back because its part named `refusal` yielded no row. */
export class StatementRefused extends Error {
  constructor(readonly refusal: string) {
    super(`Combined statement refused: ${refusal}`);
  }
}

const SQL_NAME = /^[a-z][a-z0-9_]*$/;

/** `$n` of a part's SQL, shifted by `offset` (parameters are numbered per part). */
function shift(sql: string, offset: number): string {
  return sql.replace(/\$(\d+)/g, (_, index: string) => `$${Number(index) + offset}`);
}

function joined(parts: readonly StatementPart[], render: (sql: string, index: number) => string): { sql: string[]; parameters: unknown[] } {
  const parameters: unknown[] = [];
  const sql = parts.map((part, index) => {
    const text = render(shift(part.sql, parameters.length), index);
    parameters.push(...part.parameters);
    return text;
  });
  return { sql, parameters };
}

/** Runs the reads as one SELECT of scalar subqueries; each value parsed by its owner. */
export async function readTogether<Parts extends Record<string, ReadPart<unknown>>>(
  manager: EntityManager,
  parts: Parts,
): Promise<{ [Key in keyof Parts]: Parts[Key] extends ReadPart<infer T> ? T : never }> {
  const names = Object.keys(parts);
  const { sql, parameters } = joined(
    names.map((name) => parts[name]),
    (text, index) => `(${text}) AS "${names[index]}"`,
  );
  const rows = (await manager.query(`SELECT ${sql.join(', ')}`, parameters)) as Array<Record<string, unknown>>;
  const values = Object.fromEntries(names.map((name) => [name, parts[name].parse(rows[0][name], manager)]));
  return values as { [Key in keyof Parts]: Parts[Key] extends ReadPart<infer T> ? T : never };
}

/**
 * Runs the writes as one statement of data-modifying CTEs (atomic on its own, no BEGIN/COMMIT).
 * Every part runs; if a part with a refusal yields no row, the statement raises and nothing stays.
 */
export async function writeTogether(manager: EntityManager, parts: readonly WritePart[]): Promise<void> {
  // Names and refusals are written into the SQL: the code's own constants, never a request's data.
  for (const part of parts) {
    if (!SQL_NAME.test(part.name) || (part.refusal !== undefined && !SQL_NAME.test(part.refusal))) throw new Error(`Unsafe part name or refusal: ${part.name}`);
  }
  const { sql, parameters } = joined(parts, (text, index) => `${parts[index].name} AS (${text})`);
  const checked = parts.filter((part) => part.refusal !== undefined);
  // A CASE stops at its first true branch: the first refused part is the one reported.
  const verdict =
    checked.length === 0
      ? 'NULL'
      : `CASE ${checked.map((part) => `WHEN NOT EXISTS (SELECT 1 FROM ${part.name}) THEN refuse_statement('${part.refusal}')`).join(' ')} END`;
  try {
    await manager.query(`WITH ${sql.join(',\n')}\nSELECT ${verdict} AS refused`, parameters);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === STATEMENT_REFUSED_SQLSTATE) throw new StatementRefused((error as Error).message);
    throw error;
  }
}

/**
 * An entity from its row as JSON (`to_jsonb(alias)`): timestamps become Dates and column
 * transformers apply, as TypeORM's own reads would give it.
 */
export function entityFromJson<Entity extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<Entity>, json: Record<string, unknown>): Entity {
  const metadata = manager.connection.getMetadata(target);
  const entity = manager.create(target) as Entity & Record<string, unknown>;
  for (const column of metadata.columns) {
    if (!(column.databaseName in json)) continue;
    let value = json[column.databaseName];
    if (value !== null && typeof column.type === 'string' && column.type.startsWith('timestamp')) value = new Date(value as string);
    const transformer = column.transformer;
    if (transformer && !Array.isArray(transformer)) value = transformer.from(value);
    (entity as Record<string, unknown>)[column.propertyName] = value;
  }
  return entity;
}
