import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Combined statements: a request whose work is a fixed set of reads, or of writes, sends each set
 * as one statement, one round trip instead of one per repository (bench/README.md, "Downloads:
 * round trips"). Each piece is written by the repository that owns the tables it names (DESIGN §1).
 *
 * A piece never writes `$n` itself: it renders its SQL with a `StatementParameters`, which hands
 * out the next typed placeholder (`$7::timestamptz`) for each value as the statement is built. So
 * no text is ever renumbered (a `$1` inside a literal stays a literal), every value has its type
 * stated, and a piece run alone and the same piece inside a combined statement are one rendering.
 */

/** The types a placeholder may be cast to. */
export type ParameterType = 'text' | 'text[]' | 'integer' | 'integer[]' | 'bigint' | 'boolean' | 'timestamptz' | 'jsonb' | 'jsonb[]' | 'json' | 'xid';

/** The placeholders of one statement, numbered in the order its pieces render them. */
export class StatementParameters {
  private readonly list: unknown[] = [];

  /** The values, in placeholder order. */
  get values(): readonly unknown[] {
    return this.list;
  }

  text(value: string | null): string {
    return this.typed(value, 'text');
  }

  textArray(value: readonly string[]): string {
    return this.typed(value, 'text[]');
  }

  integer(value: number | null): string {
    return this.typed(value, 'integer');
  }

  integerArray(value: readonly number[]): string {
    return this.typed(value, 'integer[]');
  }

  /** A bigint column's value; numbers beyond 2^53 − 1 go as decimal strings. */
  bigint(value: number | bigint | null): string {
    return this.typed(value, 'bigint');
  }

  boolean(value: boolean | null): string {
    return this.typed(value, 'boolean');
  }

  timestamptz(value: Date | null): string {
    return this.typed(value, 'timestamptz');
  }

  /** A jsonb value, serialized here (the one place a combined statement turns JSON into text). */
  jsonb(value: unknown): string {
    return this.typed(value, 'jsonb');
  }

  /** Serialized jsonb values, one per array element. */
  jsonbArray(values: readonly unknown[]): string {
    return this.typed(values, 'jsonb[]');
  }

  /** A json value (kept as written: stored responses are replayed byte for byte). */
  json(value: unknown): string {
    return this.typed(value, 'json');
  }

  /** A row version (`xmin`), sent as text. */
  xid(value: string): string {
    return this.typed(value, 'xid');
  }

  /** `$n::type` for a value of that type (JSON serialized, dates as ISO text, integers checked). */
  typed(value: unknown, type: ParameterType): string {
    // JSON null is a value (the JSON text `null`); for every other type null is SQL NULL.
    const json = type === 'json' || type === 'jsonb';
    this.list.push(json ? JSON.stringify(value ?? null) : value === null || value === undefined ? null : serialized(value, type));
    return `$${this.list.length}::${type === 'xid' ? 'text::xid' : type}`;
  }
}

function serialized(value: unknown, type: ParameterType): unknown {
  switch (type) {
    case 'jsonb[]':
      return (value as unknown[]).map((element) => JSON.stringify(element ?? null));
    case 'timestamptz':
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new Error(`Not a date parameter: ${String(value)}`);
      return value.toISOString();
    case 'integer':
    case 'bigint':
      if (typeof value === 'bigint') return value.toString();
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new Error(`Not an integer parameter: ${String(value)}`);
      return type === 'bigint' ? value.toString() : value;
    case 'text[]':
      return [...(value as string[])];
    case 'integer[]':
      return (value as number[]).map((element) => {
        if (!Number.isSafeInteger(element)) throw new Error(`Not an integer parameter: ${String(element)}`);
        return element;
      });
    default:
      return value;
  }
}

/** Renders a piece's SQL, taking a placeholder for each value it sends. */
export type Render = (parameters: StatementParameters) => string;

/**
 * A scalar subquery yielding one JSON value (or null), and how its owner reads that value (with
 * the manager the read ran on, for entities built from JSON).
 */
export interface ReadPart<T> {
  readonly render: Render;
  parse(value: unknown, manager: EntityManager): T;
}

/**
 * A data-modifying CTE (or a locking SELECT) of a combined write, named `name`. `refusal` names the
 * outcome when it yields no row: the whole statement is then rolled back (by the
 * `refuse_statement` function, migration DownloadsInOneStatement) and `StatementRefused` carries
 * that name; such a part must yield rows (RETURNING, or a SELECT). `uses` names the earlier parts
 * whose rows it reads: the only other parts' names its SQL may mention.
 */
export interface WritePart {
  readonly name: string;
  readonly render: Render;
  readonly refusal?: string;
  readonly uses?: readonly string[];
}

/** SQLSTATE raised by `refuse_statement(text)`: a combined write refused by one of its parts. */
export const STATEMENT_REFUSED_SQLSTATE = 'EH001';

/** A combined write rolled back because its part named `refusal` yielded no row. */
export class StatementRefused extends Error {
  constructor(readonly refusal: string) {
    super(`Combined statement refused: ${refusal}`);
  }
}

/** A statement as sent: its text and its values in placeholder order. */
export interface BuiltStatement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

const SQL_NAME = /^[a-z][a-z0-9_]*$/;
/** A read part's name is a quoted column alias, so its case is kept (`productIds`). */
const COLUMN_ALIAS = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Names and refusals are written into the SQL: the code's own constants, never a request's data. */
function assertSqlName(kind: string, name: string, pattern = SQL_NAME): void {
  if (!pattern.test(name)) throw new Error(`Unsafe ${kind} in a combined statement: ${JSON.stringify(name)}`);
}

const mentions = (sql: string, name: string): boolean => new RegExp(`\\b${name}\\b`).test(sql);
const yieldsRows = (sql: string): boolean => /\bRETURNING\b/i.test(sql) || /^\s*SELECT\b/i.test(sql);

/** The SELECT of scalar subqueries `readTogether` sends; refused at build time when empty or a name is unsafe. */
export function buildRead(parts: Readonly<Record<string, ReadPart<unknown>>>): BuiltStatement {
  const names = Object.keys(parts);
  if (names.length === 0) throw new Error('A combined read needs at least one part');
  const parameters = new StatementParameters();
  const columns = names.map((name) => {
    assertSqlName('part name', name, COLUMN_ALIAS);
    return `(${parts[name].render(parameters)}) AS "${name}"`;
  });
  return { sql: `SELECT ${columns.join(', ')}`, parameters: parameters.values };
}

/**
 * The WITH statement `writeTogether` sends. Refused at build time (an Error, before anything is
 * sent): no parts, an unsafe or repeated name, a part mentioning another part it does not declare
 * in `uses` or declaring one that does not come before it, a refusal on a part that yields no rows.
 */
export function buildWrite(parts: readonly WritePart[]): BuiltStatement {
  if (parts.length === 0) throw new Error('A combined write needs at least one part');
  const parameters = new StatementParameters();
  const seen = new Set<string>();
  const names = parts.map((part) => part.name);
  const ctes = parts.map((part) => {
    assertSqlName('part name', part.name);
    if (part.refusal !== undefined) assertSqlName('refusal', part.refusal);
    if (seen.has(part.name)) throw new Error(`Two parts of one combined write are named ${part.name}`);
    for (const used of part.uses ?? []) {
      if (!seen.has(used)) throw new Error(`Part ${part.name} uses ${used}, which no earlier part names`);
    }
    const sql = part.render(parameters);
    const undeclared = names.find((other) => other !== part.name && !(part.uses ?? []).includes(other) && mentions(sql, other));
    if (undeclared !== undefined) throw new Error(`Part ${part.name} mentions part ${undeclared} without declaring it in uses`);
    if (part.refusal !== undefined && !yieldsRows(sql)) throw new Error(`Part ${part.name} has a refusal but yields no rows (no RETURNING)`);
    seen.add(part.name);
    return `${part.name} AS (${sql})`;
  });
  const checked = parts.filter((part) => part.refusal !== undefined);
  // A CASE stops at its first true branch: the first refused part is the one reported.
  const verdict =
    checked.length === 0
      ? 'NULL'
      : `CASE ${checked.map((part) => `WHEN NOT EXISTS (SELECT 1 FROM ${part.name}) THEN refuse_statement('${part.refusal}')`).join(' ')} END`;
  return { sql: `WITH ${ctes.join(',\n')}\nSELECT ${verdict} AS refused`, parameters: parameters.values };
}

/**
 * One write part as a statement of its own (inside a transaction, say): the same rendering, as a
 * CTE so that the driver returns its rows whatever the command (a bare UPDATE … RETURNING comes
 * back as [rows, count]).
 */
export function buildAlone(part: WritePart): BuiltStatement {
  assertSqlName('part name', part.name);
  if (part.uses !== undefined && part.uses.length > 0) throw new Error(`Part ${part.name} uses other parts: it can't run alone`);
  const parameters = new StatementParameters();
  return { sql: `WITH ${part.name} AS (${part.render(parameters)}) SELECT * FROM ${part.name}`, parameters: parameters.values };
}

/** Runs the reads as one SELECT of scalar subqueries; each value parsed by its owner. */
export async function readTogether<Parts extends Record<string, ReadPart<unknown>>>(
  manager: EntityManager,
  parts: Parts,
): Promise<{ [Key in keyof Parts]: Parts[Key] extends ReadPart<infer T> ? T : never }> {
  const { sql, parameters } = buildRead(parts);
  const rows = (await manager.query(sql, [...parameters])) as Array<Record<string, unknown>>;
  const values = Object.fromEntries(Object.keys(parts).map((name) => [name, parts[name].parse(rows[0][name], manager)]));
  return values as { [Key in keyof Parts]: Parts[Key] extends ReadPart<infer T> ? T : never };
}

/**
 * Runs the writes as one statement of data-modifying CTEs (atomic on its own, no BEGIN/COMMIT).
 * Every part runs; if a part with a refusal yields no row, the statement raises and nothing stays.
 */
export async function writeTogether(manager: EntityManager, parts: readonly WritePart[]): Promise<void> {
  const { sql, parameters } = buildWrite(parts);
  try {
    await manager.query(sql, [...parameters]);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === STATEMENT_REFUSED_SQLSTATE) throw new StatementRefused((error as Error).message);
    throw error;
  }
}

/** Runs one write part as its own statement (the transaction path of what a combined write does) and returns its rows. */
export async function runAlone<Row>(manager: EntityManager, part: WritePart): Promise<Row[]> {
  const { sql, parameters } = buildAlone(part);
  return (await manager.query(sql, [...parameters])) as Row[];
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
