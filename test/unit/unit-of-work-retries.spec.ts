import { EventEmitter2 } from '@nestjs/event-emitter';
import type { DataSource, EntityManager } from 'typeorm';
import { Replica } from '../../src/database/replica';
import { CONFLICT_ATTEMPTS, UnitOfWork } from '../../src/database/unit-of-work';
import { operationFor, type IdempotencyClaim } from '../../src/database/operation';
import { TenantTransactionLimiter } from '../../src/database/tenant-transaction-limiter';
import { ApiError } from '../../src/errors/api-error';

/** A node-postgres server error wrapped as TypeORM wraps it (QueryFailedError keeps it as driverError). */
function wrappedServerError(code: string, message: string): Error {
  return Object.assign(new Error(message), { driverError: Object.assign(new Error(message), { code, severity: 'ERROR' }) });
}

/** A data source whose transactions run the work at once and count how many were opened; its manager keeps the SQL it was sent. */
function fakeDataSource(): DataSource & { opened: number; sent: string[] } {
  const sent: string[] = [];
  const manager = {
    query: (sql: string) => {
      sent.push(sql);
      return Promise.resolve([{ refused: null }]);
    },
  } as unknown as EntityManager;
  const dataSource = {
    opened: 0,
    sent,
    manager,
    transaction: async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
      dataSource.opened += 1;
      return work(manager);
    },
  };
  return dataSource as unknown as DataSource & { opened: number; sent: string[] };
}

const limiter = () => new TenantTransactionLimiter({ concurrency: 4, queue: 4, timeoutMilliseconds: 1000 });
const tenant = { merchantId: 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w', mode: 'test' as const };

describe('UnitOfWork: the one place deadlocks and serialization failures are retried (DESIGN §13)', () => {
  it.each([
    ['40P01 deadlock_detected', '40P01'],
    ['40001 serialization_failure', '40001'],
  ])('runs a transaction again after %s, and returns what the successful run returned', async (_name, code) => {
    const dataSource = fakeDataSource();
    const unitOfWork = new UnitOfWork(dataSource, new EventEmitter2(), limiter(), Replica.none());
    let runs = 0;
    const result = await unitOfWork.run(async () => {
      runs += 1;
      if (runs < 3) throw wrappedServerError(code, 'lost a race');
      return 'done';
    });
    expect(result).toBe('done');
    expect(runs).toBe(3);
    expect(dataSource.opened).toBe(3);
  });

  it(`answers 503 SERVICE_UNAVAILABLE with Retry-After after ${CONFLICT_ATTEMPTS} attempts, never the raw error (a 500)`, async () => {
    const dataSource = fakeDataSource();
    const unitOfWork = new UnitOfWork(dataSource, new EventEmitter2(), limiter(), Replica.none());
    const failure = await unitOfWork.run(() => Promise.reject(wrappedServerError('40P01', 'deadlock detected'))).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 503, renderedCode: 'SERVICE_UNAVAILABLE' });
    expect(Number((failure as ApiError).headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(dataSource.opened).toBe(CONFLICT_ATTEMPTS);
  });

  it('does not retry any other error', async () => {
    const dataSource = fakeDataSource();
    const unitOfWork = new UnitOfWork(dataSource, new EventEmitter2(), limiter(), Replica.none());
    const unique = wrappedServerError('23505', 'duplicate key value violates unique constraint');
    await expect(unitOfWork.run(() => Promise.reject(unique))).rejects.toBe(unique);
    expect(dataSource.opened).toBe(1);
  });

  it("tells a request's idempotency claim that its key was released before the transaction runs again", async () => {
    const dataSource = fakeDataSource();
    const unitOfWork = new UnitOfWork(dataSource, new EventEmitter2(), limiter(), Replica.none());
    const calls: string[] = [];
    const claim: IdempotencyClaim = {
      acquire: () => Promise.resolve(void calls.push('acquire')),
      completionPart: () => {
        calls.push('complete');
        return { name: 'stored_response', render: (parameters) => `UPDATE idempotency_keys SET response_status = ${parameters.integer(201)}` };
      },
      takenWithResponsePart: () => {
        throw new Error('a transaction stores its response with completionPart');
      },
      rolledBack: () => void calls.push('rolledBack'),
    };
    let runs = 0;
    await unitOfWork.run({ ...operationFor(tenant), idempotency: claim }, async () => {
      runs += 1;
      if (runs === 1) throw wrappedServerError('40001', 'could not serialize access');
      return 'done';
    });
    expect(calls).toEqual(['acquire', 'rolledBack', 'acquire', 'complete']);
    // The stored response is the closing statement of the run that committed, and only of that one.
    expect(dataSource.sent).toEqual([expect.stringContaining('stored_response AS (UPDATE idempotency_keys')]);
  });
});
