import type { EntityManager } from 'typeorm';
import {
  buildAlone,
  buildRead,
  buildWrite,
  readTogether,
  runAlone,
  STATEMENT_REFUSED_SQLSTATE,
  StatementParameters,
  StatementRefused,
  WritePart,
  writeTogether,
} from '../../src/database/combined-statement';

/** A manager that records what it is sent and answers (or fails) as told. */
function fakeManager(answer: (sql: string, values: unknown[]) => unknown): EntityManager & { sent: Array<{ sql: string; values: unknown[] }> } {
  const sent: Array<{ sql: string; values: unknown[] }> = [];
  return {
    sent,
    query: (sql: string, values: unknown[]) => {
      sent.push({ sql, values });
      return Promise.resolve().then(() => answer(sql, values));
    },
  } as unknown as EntityManager & { sent: Array<{ sql: string; values: unknown[] }> };
}

const part = (name: string, sql: string, extra: Partial<WritePart> = {}): WritePart => ({ name, render: () => sql, ...extra });

describe('StatementParameters', () => {
  it('numbers placeholders in the order they are taken, each cast to its type', () => {
    const parameters = new StatementParameters();
    expect(parameters.text('a')).toBe('$1::text');
    expect(parameters.integer(7)).toBe('$2::integer');
    expect(parameters.bigint(2 ** 40)).toBe('$3::bigint');
    expect(parameters.boolean(true)).toBe('$4::boolean');
    expect(parameters.timestamptz(new Date('2030-01-02T03:04:05.678Z'))).toBe('$5::timestamptz');
    expect(parameters.jsonb({ b: 1 })).toBe('$6::jsonb');
    expect(parameters.json([1])).toBe('$7::json');
    expect(parameters.textArray(['x', 'y'])).toBe('$8::text[]');
    expect(parameters.jsonbArray([{ a: 1 }, null])).toBe('$9::jsonb[]');
    expect(parameters.xid('42')).toBe('$10::text::xid');
    expect(parameters.values).toEqual(['a', 7, String(2 ** 40), true, '2030-01-02T03:04:05.678Z', '{"b":1}', '[1]', ['x', 'y'], ['{"a":1}', 'null'], '42']);
  });

  it('sends SQL NULL for a null of any type but JSON, where null is the JSON text null', () => {
    const parameters = new StatementParameters();
    parameters.text(null);
    parameters.integer(null);
    parameters.timestamptz(null);
    parameters.bigint(null);
    parameters.jsonb(null);
    parameters.json(undefined);
    expect(parameters.values).toEqual([null, null, null, null, 'null', 'null']);
  });

  it('refuses values that are not of their type', () => {
    const parameters = new StatementParameters();
    expect(() => parameters.integer(1.5)).toThrow('Not an integer parameter: 1.5');
    expect(() => parameters.integer(Number.MAX_SAFE_INTEGER + 2)).toThrow('Not an integer parameter');
    expect(() => parameters.bigint(Number.NaN)).toThrow('Not an integer parameter');
    expect(() => parameters.timestamptz(new Date('nonsense'))).toThrow('Not a date parameter');
    expect(() => parameters.typed('2030-01-01', 'timestamptz')).toThrow('Not a date parameter');
    expect(parameters.values).toEqual([]);
    expect(parameters.bigint(10n ** 20n)).toBe('$1::bigint');
    expect(parameters.values).toEqual(['100000000000000000000']);
  });

  it('copies arrays, so a later change of the caller does not change what is sent', () => {
    const parameters = new StatementParameters();
    const ids = ['a'];
    parameters.textArray(ids);
    ids.push('b');
    expect(parameters.values).toEqual([['a']]);
  });
});

describe('buildRead', () => {
  it('is one SELECT of the parts as named scalar subqueries, numbered across parts without touching their text', () => {
    const { sql, parameters } = buildRead({
      first: { render: (p) => `SELECT '$1 stays' WHERE x = ${p.text('a')}`, parse: () => null },
      second: { render: (p) => `SELECT ${p.integer(2)} + ${p.integer(3)}`, parse: () => null },
    });
    expect(sql).toBe(`SELECT (SELECT '$1 stays' WHERE x = $1::text) AS "first", (SELECT $2::integer + $3::integer) AS "second"`);
    expect(parameters).toEqual(['a', 2, 3]);
  });

  it('refuses no parts and unsafe names at build time', () => {
    expect(() => buildRead({})).toThrow('A combined read needs at least one part');
    expect(() => buildRead({ 'a"b': { render: () => 'SELECT 1', parse: () => null } })).toThrow('Unsafe part name');
    expect(() => buildRead({ '1x': { render: () => 'SELECT 1', parse: () => null } })).toThrow('Unsafe part name');
    expect(buildRead({ productIds: { render: () => 'SELECT 1', parse: () => null } }).sql).toBe('SELECT (SELECT 1) AS "productIds"');
  });

  it('readTogether parses each value with its own part, with the manager it ran on', async () => {
    const manager = fakeManager(() => [{ one: 1, two: 'x' }]);
    const seen: unknown[] = [];
    const read = await readTogether(manager, {
      one: { render: () => 'SELECT 1', parse: (value, used) => (seen.push(used), Number(value) + 1) },
      two: { render: () => "SELECT 'x'", parse: (value) => `${String(value)}!` },
    });
    expect(read).toEqual({ one: 2, two: 'x!' });
    expect(seen).toEqual([manager]);
    expect(manager.sent).toHaveLength(1);
  });
});

describe('buildWrite', () => {
  it('is one WITH of the parts, the first refused part named in the verdict', () => {
    const { sql, parameters } = buildWrite([
      { name: 'first', render: (p) => `INSERT INTO t VALUES (${p.text('a')}) RETURNING id`, refusal: 'taken' },
      { name: 'second', uses: ['first'], render: (p) => `UPDATE u SET n = ${p.integer(1)} FROM first RETURNING 1`, refusal: 'gone' },
      { name: 'third', render: () => 'DELETE FROM v' },
    ]);
    expect(sql).toBe(
      [
        'WITH first AS (INSERT INTO t VALUES ($1::text) RETURNING id),',
        'second AS (UPDATE u SET n = $2::integer FROM first RETURNING 1),',
        'third AS (DELETE FROM v)',
        "SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM first) THEN refuse_statement('taken') WHEN NOT EXISTS (SELECT 1 FROM second) THEN refuse_statement('gone') END AS refused",
      ].join('\n'),
    );
    expect(parameters).toEqual(['a', 1]);
  });

  it('has a NULL verdict when no part can refuse, and accepts a refusing SELECT (a lock)', () => {
    expect(buildWrite([part('only', 'DELETE FROM v')]).sql).toBe('WITH only AS (DELETE FROM v)\nSELECT NULL AS refused');
    expect(() => buildWrite([part('locked', 'SELECT id FROM p FOR SHARE', { refusal: 'changed' })])).not.toThrow();
  });

  it('refuses at build time what would be an SQL error or a silent mistake', () => {
    expect(() => buildWrite([])).toThrow('A combined write needs at least one part');
    expect(() => buildWrite([part('a b', 'DELETE FROM v')])).toThrow('Unsafe part name');
    expect(() => buildWrite([part('ok', 'DELETE FROM v RETURNING 1', { refusal: "x'); DROP" })])).toThrow('Unsafe refusal');
    expect(() => buildWrite([part('twice', 'DELETE FROM v'), part('twice', 'DELETE FROM w')])).toThrow('Two parts of one combined write are named twice');
    expect(() => buildWrite([part('later', 'INSERT INTO v SELECT * FROM sooner', { uses: ['sooner'] }), part('sooner', 'DELETE FROM w RETURNING 1')])).toThrow(
      'Part later uses sooner, which no earlier part names',
    );
    expect(() => buildWrite([part('sooner', 'DELETE FROM w RETURNING 1'), part('later', 'INSERT INTO v SELECT * FROM sooner')])).toThrow(
      'Part later mentions part sooner without declaring it in uses',
    );
    expect(() => buildWrite([part('silent', 'UPDATE v SET n = 1', { refusal: 'gone' })])).toThrow('Part silent has a refusal but yields no rows (no RETURNING)');
  });

  it('does not take a longer name for a part it mentions', () => {
    expect(() => buildWrite([part('event', 'DELETE FROM w RETURNING 1'), part('later', 'INSERT INTO events SELECT * FROM event_rows')])).not.toThrow();
  });

  it('writeTogether sends it once and turns the refusal SQLSTATE into StatementRefused', async () => {
    const refused = Object.assign(new Error('gone'), { code: STATEMENT_REFUSED_SQLSTATE });
    await expect(writeTogether(fakeManager(() => Promise.reject(refused)), [part('a', 'DELETE FROM v RETURNING 1', { refusal: 'gone' })])).rejects.toBeInstanceOf(StatementRefused);
    const other = Object.assign(new Error('boom'), { code: '23505' });
    await expect(writeTogether(fakeManager(() => Promise.reject(other)), [part('a', 'DELETE FROM v')])).rejects.toBe(other);
    const manager = fakeManager(() => [{ refused: null }]);
    await writeTogether(manager, [part('a', 'DELETE FROM v')]);
    expect(manager.sent).toHaveLength(1);
    expect(new StatementRefused('gone')).toMatchObject({ refusal: 'gone', message: 'Combined statement refused: gone' });
  });
});

describe('a part run alone', () => {
  it('is the same rendering as inside a combined write, wrapped so that its rows come back', async () => {
    const alone = { name: 'usage', render: (p: StatementParameters) => `UPDATE u SET n = ${p.integer(5)} RETURNING n` };
    expect(buildAlone(alone)).toEqual({ sql: 'WITH usage AS (UPDATE u SET n = $1::integer RETURNING n) SELECT * FROM usage', parameters: [5] });
    const manager = fakeManager(() => [{ n: 5 }]);
    expect(await runAlone(manager, alone)).toEqual([{ n: 5 }]);
  });

  it('refuses a part that reads another part, or has an unsafe name', () => {
    expect(() => buildAlone(part('later', 'SELECT * FROM sooner', { uses: ['sooner'] }))).toThrow("Part later uses other parts: it can't run alone");
    expect(() => buildAlone(part('Bad', 'SELECT 1'))).toThrow('Unsafe part name');
  });
});
