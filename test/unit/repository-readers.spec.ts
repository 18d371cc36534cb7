import { readSources } from '../support/table-ownership';

/**
 * DESIGN §1: a repository reads through the `Reader` (`db`) and writes through the `Transaction`
 * (`tx`) its caller passes, so whether a statement runs in a transaction or on the pool is the
 * caller's decision, seen at the call. A repository holding the DataSource could read beside the
 * caller's transaction (and, on the embedded database's single connection, wait on it forever).
 */
const DATA_SOURCE_HOLDERS: Record<string, string> = {
  // The dispatcher's claim is a prepared statement on a pg client of its own, across every tenant.
  'webhooks/webhook-deliveries.repository.ts': 'the pg Pool for the claim and the pending count (maintenance)',
};

describe('repositories take their reader or transaction from the caller', () => {
  const repositories = readSources().filter(({ path }) => path.endsWith('.repository.ts'));

  it('finds the repositories', () => {
    expect(repositories.length).toBeGreaterThanOrEqual(20);
  });

  it('no repository reads or writes through a DataSource of its own', () => {
    const offenders = repositories.filter(({ source }) => /this\.dataSource\.(manager|query|createQueryBuilder|getRepository)\b/.test(source)).map(({ path }) => path);
    expect(offenders).toEqual([]);
  });

  it('only the listed repositories hold the DataSource at all, each for its stated reason', () => {
    const holders = repositories.filter(({ source }) => /\bDataSource\b/.test(source)).map(({ path }) => path);
    expect(holders.sort()).toEqual(Object.keys(DATA_SOURCE_HOLDERS).sort());
  });
});
