import { ApiError } from '../../src/errors/api-error';
import { TenantTransactionLimiter } from '../../src/database/tenant-transaction-limiter';

/** A unit of work the test finishes by hand. */
function deferred(): { promise: Promise<void>; finish: () => void; fail: (error: Error) => void } {
  let finish = () => {};
  let fail: (error: Error) => void = () => {};
  const promise = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { promise, finish, fail };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('TenantTransactionLimiter', () => {
  afterEach(() => jest.useRealTimers());

  it('runs at most `concurrency` works of one tenant at once, the rest in arrival order', async () => {
    const limiter = new TenantTransactionLimiter({ concurrency: 2, queue: 10, timeoutMilliseconds: 10_000 });
    const works = Array.from({ length: 5 }, () => deferred());
    const started: number[] = [];
    const results = works.map((work, index) =>
      limiter.run('mer_a', async () => {
        started.push(index);
        await work.promise;
        return index;
      }),
    );
    await flush();
    expect(started).toEqual([0, 1]);
    expect(limiter.load('mer_a')).toEqual({ running: 2, waiting: 3 });
    works[1].finish();
    await flush();
    expect(started).toEqual([0, 1, 2]);
    works[0].finish();
    works[2].finish();
    await flush();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    works[3].finish();
    works[4].finish();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4]);
    expect(limiter.load('mer_a')).toEqual({ running: 0, waiting: 0 });
  });

  it("never makes one tenant wait for another's share", async () => {
    const limiter = new TenantTransactionLimiter({ concurrency: 1, queue: 10, timeoutMilliseconds: 10_000 });
    const busy = deferred();
    const first = limiter.run('mer_a', () => busy.promise);
    const queued = limiter.run('mer_a', () => Promise.resolve('a2'));
    await expect(limiter.run('mer_b', () => Promise.resolve('b'))).resolves.toBe('b');
    expect(limiter.load('mer_a')).toEqual({ running: 1, waiting: 1 });
    busy.finish();
    await first;
    await expect(queued).resolves.toBe('a2');
  });

  it('frees the turn when the work fails', async () => {
    const limiter = new TenantTransactionLimiter({ concurrency: 1, queue: 10, timeoutMilliseconds: 10_000 });
    await expect(limiter.run('mer_a', () => Promise.reject(new Error('rolled back')))).rejects.toThrow('rolled back');
    await expect(limiter.run('mer_a', () => Promise.resolve('next'))).resolves.toBe('next');
    expect(limiter.load('mer_a')).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses work beyond the queue at once with 503 SERVICE_UNAVAILABLE and Retry-After', async () => {
    const limiter = new TenantTransactionLimiter({ concurrency: 1, queue: 2, timeoutMilliseconds: 10_000 });
    const busy = deferred();
    const running = limiter.run('mer_a', () => busy.promise);
    const waiting = [limiter.run('mer_a', () => Promise.resolve(1)), limiter.run('mer_a', () => Promise.resolve(2))];
    const refused = await limiter.run('mer_a', () => Promise.resolve(3)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(503);
    expect((refused as ApiError).renderedCode).toBe('SERVICE_UNAVAILABLE');
    expect((refused as ApiError).headers['Retry-After']).toBe('1');
    busy.finish();
    await running;
    expect(await Promise.all(waiting)).toEqual([1, 2]);
  });

  it('gives up on a wait past the timeout with 503, without running the work', async () => {
    jest.useFakeTimers();
    const limiter = new TenantTransactionLimiter({ concurrency: 1, queue: 10, timeoutMilliseconds: 500 });
    const busy = deferred();
    const running = limiter.run('mer_a', () => busy.promise);
    const work = jest.fn(() => Promise.resolve('late'));
    const waited = limiter.run('mer_a', work).catch((error: unknown) => error);
    jest.advanceTimersByTime(499);
    expect(limiter.load('mer_a').waiting).toBe(1);
    jest.advanceTimersByTime(1);
    const error = await waited;
    expect((error as ApiError).status).toBe(503);
    expect(work).not.toHaveBeenCalled();
    expect(limiter.load('mer_a')).toEqual({ running: 1, waiting: 0 });
    busy.finish();
    await running;
    expect(limiter.load('mer_a')).toEqual({ running: 0, waiting: 0 });
  });

  it('does not limit system work (no tenant)', async () => {
    const limiter = new TenantTransactionLimiter({ concurrency: 1, queue: 1, timeoutMilliseconds: 10 });
    const works = Array.from({ length: 5 }, () => deferred());
    let started = 0;
    const all = works.map((work) => limiter.run(null, async () => { started += 1; await work.promise; }));
    await flush();
    expect(started).toBe(5);
    works.forEach((work) => work.finish());
    await Promise.all(all);
  });
});
