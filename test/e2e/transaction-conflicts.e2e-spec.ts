import { UnitOfWork } from '../../src/database/unit-of-work';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * A real deadlock, retried by UnitOfWork (DESIGN §13): two transactions take two advisory locks in
 * opposite orders, so PostgreSQL must end one of them (40P01); UnitOfWork runs it again and both
 * complete. On the embedded database (one session) the two run one after the other and nothing
 * deadlocks: both still complete, with nothing to retry.
 */
describe('deadlocks are retried where transactions open', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('runs the transaction PostgreSQL chose as the deadlock victim again, and both succeed', async () => {
    const unitOfWork = testApp.app.get(UnitOfWork);
    const [first, second] = [4_210_001, 4_210_002];
    const runs = { forward: 0, backward: 0 };
    const lockBoth = (direction: 'forward' | 'backward', [a, b]: number[]) =>
      unitOfWork.run(async (tx) => {
        runs[direction] += 1;
        await tx.manager.query('SELECT pg_advisory_xact_lock($1)', [a]);
        // Both hold their first lock before either asks for its second.
        await tx.manager.query('SELECT pg_sleep(0.2)');
        await tx.manager.query('SELECT pg_advisory_xact_lock($1)', [b]);
        return direction;
      });
    const results = await Promise.all([lockBoth('forward', [first, second]), lockBoth('backward', [second, first])]);
    expect(results).toEqual(['forward', 'backward']);
    const serverDatabase = Boolean(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL);
    expect(runs.forward + runs.backward).toBe(serverDatabase ? 3 : 2);
  });
});
