/** The columns that decide whether an entitlement has run out (structural: the entity imports this file). */
export interface RunOutFields {
  expires_at: Date | null;
  usage_count: number;
  usage_limit: number | null;
}

/**
 * "Ran out", defined once, as data: an entitlement runs out when one of its bounds is reached, that
 * is when the bound's column is set (null: no bound of that kind) and its measure is at least the
 * bound. Time runs out at `expires_at` (the instant itself counts), uses at `usage_limit`. The
 * TypeScript predicate and every SQL fragment (reads, the list filter, the check, the sweeper and
 * its partial index) are derived from this table, and a test evaluates both forms on a table of
 * cases and requires them to agree.
 */
export const RUN_OUT_BOUNDS = {
  time: { bound: 'expires_at', measure: { now: true } },
  uses: { bound: 'usage_limit', measure: { column: 'usage_count' }, storedAs: 'uses_ran_out' },
} as const;

/**
 * The stored generated column that holds `boundReached('uses')` (entitlement.entity.ts): the
 * sweeper's index filters on it, so no index names usage_count and a use is a HOT update.
 */
export const USES_RAN_OUT_COLUMN = RUN_OUT_BOUNDS.uses.storedAs;

export type RunOutBound = keyof typeof RUN_OUT_BOUNDS;
const BOUNDS = Object.keys(RUN_OUT_BOUNDS) as RunOutBound[];

type Measure = { now: true } | { column: 'usage_count' };

function asNumber(value: Date | number | null): number | null {
  return value instanceof Date ? value.getTime() : value;
}

/** True when this bound of the entitlement is reached at `now`. */
export function boundReached(bound: RunOutBound, entitlement: RunOutFields, now: Date): boolean {
  const rule = RUN_OUT_BOUNDS[bound];
  const limit = asNumber(entitlement[rule.bound]);
  const measure: Measure = rule.measure;
  const measured = 'now' in measure ? now.getTime() : entitlement[measure.column];
  return limit !== null && measured >= limit;
}

/** True when the entitlement's time or uses have run out at `now`. */
export function hasRunOut(entitlement: RunOutFields, now: Date): boolean {
  return BOUNDS.some((bound) => boundReached(bound, entitlement, now));
}

/**
 * The status every read reports: the stored one, except that an active entitlement whose time or
 * uses have run out is expired from that instant, before the sweeper persists it.
 */
export function effectiveStatus<Status extends string>(entitlement: RunOutFields & { status: Status }, now: Date): Status | 'expired' {
  return entitlement.status === 'active' && hasRunOut(entitlement, now) ? 'expired' : entitlement.status;
}

/** `column` of the table alias (none: bare, as in an index predicate). */
const columnOf = (alias: string | null, column: string): string => (alias === null ? column : `${alias}.${column}`);

function measureSql(bound: RunOutBound, alias: string | null, nowParameter: string): string {
  const measure: Measure = RUN_OUT_BOUNDS[bound].measure;
  return 'now' in measure ? nowParameter : columnOf(alias, measure.column);
}

/** SQL of `boundReached` (alias null: bare column names, for an index predicate). */
export function boundReachedSql(bound: RunOutBound, alias: string | null, nowParameter: string): string {
  const limit = columnOf(alias, RUN_OUT_BOUNDS[bound].bound);
  return `${limit} IS NOT NULL AND ${measureSql(bound, alias, nowParameter)} >= ${limit}`;
}

/** SQL of `hasRunOut` for a table alias; `nowParameter` is a bound timestamp (e.g. ':now' or '$5'). */
export function runOutSql(alias: string, nowParameter: string): string {
  return `(${BOUNDS.map((bound) => `(${boundReachedSql(bound, alias, nowParameter)})`).join(' OR ')})`;
}

/**
 * SQL of `hasRunOut` for the sweeper: a bound with a stored column (`storedAs`) reads that column,
 * which is what lets its partial index serve the query. Same answer as `runOutSql`: PostgreSQL
 * computes the column from the same fragment on every write of the row.
 */
export function dueSql(alias: string, nowParameter: string): string {
  return `(${BOUNDS.map((bound) => {
    const rule = RUN_OUT_BOUNDS[bound];
    return 'storedAs' in rule ? columnOf(alias, rule.storedAs) : `(${boundReachedSql(bound, alias, nowParameter)})`;
  }).join(' OR ')})`;
}

/**
 * SQL of "not run out", each bound negated on its own (`bound IS NULL OR measure < bound`): the
 * form the access check filters with.
 */
export function notRunOutSql(alias: string, nowParameter: string): string {
  return BOUNDS.map((bound) => {
    const limit = columnOf(alias, RUN_OUT_BOUNDS[bound].bound);
    return `(${limit} IS NULL OR ${measureSql(bound, alias, nowParameter)} < ${limit})`;
  }).join(' AND ');
}

/** SQL of `effectiveStatus`, so list filters agree with what the mapper reports. */
export function effectiveStatusSql(alias: string, nowParameter: string): string {
  return `(CASE WHEN ${alias}.status = 'active' AND ${runOutSql(alias, nowParameter)} THEN 'expired' ELSE ${alias}.status END)`;
}
