import { BackgroundLoop, BackgroundLoopOptions } from '../../src/database/background-loop';

/** A pass the test ends by hand: each call is recorded with its signal and waits to be settled. */
class ControlledPasses {
  readonly calls: { signal: AbortSignal; resolve: (value: number) => void; reject: (error: Error) => void; startedAt: number }[] = [];
  running = 0;
  mostAtOnce = 0;

  readonly pass = (signal: AbortSignal): Promise<number> => {
    this.running += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    return new Promise<number>((resolve, reject) => {
      this.calls.push({ signal, resolve, reject, startedAt: Date.now() });
    }).finally(() => (this.running -= 1));
  };

  get count(): number {
    return this.calls.length;
  }

  get last() {
    return this.calls[this.calls.length - 1];
  }

  /** Stops the loop, ending whatever pass it waits for. */
  async stop(loop: BackgroundLoop<number>): Promise<void> {
    const stopping = loop.stop();
    for (const call of this.calls) call.resolve(0);
    await stopping;
  }
}

const INTERVAL = 1_000;

describe('BackgroundLoop', () => {
  let passes: ControlledPasses;
  let logged: { fields: unknown; message: unknown }[];

  function loopWith(options: Partial<BackgroundLoopOptions<number>> = {}): BackgroundLoop<number> {
    return new BackgroundLoop<number>({
      name: 'Test pass',
      intervalMilliseconds: INTERVAL,
      maximumBackoffMilliseconds: 5_000,
      pass: passes.pass,
      logger: { error: (fields: unknown, message: unknown) => logged.push({ fields, message }) },
      ...options,
    });
  }

  /** Lets timers due within `milliseconds` fire and the promises they start settle. */
  const elapse = (milliseconds: number) => jest.advanceTimersByTimeAsync(milliseconds);
  /** Settles pending promises without moving time. */
  const settle = () => jest.advanceTimersByTimeAsync(0);

  beforeEach(() => {
    jest.useFakeTimers({ now: 0 });
    passes = new ControlledPasses();
    logged = [];
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  describe('schedule', () => {
    it('runs the first pass after firstDelayMilliseconds, then one an interval after each pass ends', async () => {
      const loop = loopWith({ firstDelayMilliseconds: 300 });
      loop.start();
      await elapse(299);
      expect(passes.count).toBe(0);
      await elapse(1);
      expect(passes.count).toBe(1);

      // A long pass: the next one is an interval after it ends, not after it began.
      await elapse(2_500);
      expect(passes.count).toBe(1);
      passes.last.resolve(1);
      await elapse(INTERVAL - 1);
      expect(passes.count).toBe(1);
      await elapse(1);
      expect(passes.count).toBe(2);
      expect(passes.last.startedAt).toBe(300 + 2_500 + INTERVAL);
      await passes.stop(loop);
    });

    it('runs the first pass at once (on the next tick) without a first delay', async () => {
      const loop = loopWith();
      loop.start();
      expect(passes.count).toBe(0);
      await settle();
      expect(passes.count).toBe(1);
      await passes.stop(loop);
    });

    it('starts once: a second start() neither doubles the passes nor restarts the delay', async () => {
      const loop = loopWith({ firstDelayMilliseconds: 500 });
      loop.start();
      await elapse(400);
      loop.start();
      await elapse(100);
      expect(passes.count).toBe(1);
      passes.last.resolve(1);
      await elapse(INTERVAL);
      expect(passes.count).toBe(2);
      expect(passes.mostAtOnce).toBe(1);
      await passes.stop(loop);
    });

    it('start() while a pass runs schedules the next one after that pass', async () => {
      const loop = loopWith();
      const explicit = loop.run();
      loop.start();
      await elapse(5 * INTERVAL);
      expect(passes.count).toBe(1);
      passes.last.resolve(7);
      expect(await explicit).toBe(7);
      await elapse(INTERVAL);
      expect(passes.count).toBe(2);
      await passes.stop(loop);
    });

    it('never keeps the process alive: its timer is unref’d', async () => {
      const unref = jest.spyOn(global, 'setTimeout');
      const loop = loopWith({ firstDelayMilliseconds: 10_000 });
      loop.start();
      const timer = unref.mock.results[unref.mock.results.length - 1].value as NodeJS.Timeout;
      expect(timer.hasRef()).toBe(false);
      unref.mockRestore();
      await passes.stop(loop);
    });
  });

  describe('single flight', () => {
    it('never runs two passes at once, whoever asks', async () => {
      const loop = loopWith();
      loop.start();
      await settle();
      expect(passes.count).toBe(1);
      loop.wake();
      loop.wake();
      const joined = loop.run();
      loop.start();
      await elapse(10 * INTERVAL);
      expect(passes.count).toBe(1);
      expect(passes.mostAtOnce).toBe(1);
      passes.last.resolve(3);
      expect(await joined).toBe(3);
      await settle();
      passes.last.resolve(4);
      await settle();
      expect(passes.mostAtOnce).toBe(1);
      await passes.stop(loop);
    });

    it('run() joins the running pass: the same result, no second pass for it', async () => {
      const loop = loopWith();
      const first = loop.run();
      const second = loop.run();
      await settle();
      expect(passes.count).toBe(1);
      passes.last.resolve(42);
      expect(await Promise.all([first, second])).toEqual([42, 42]);
      await elapse(10 * INTERVAL);
      // Not started: an explicit run schedules nothing after it.
      expect(passes.count).toBe(1);
    });

    it('run(pass) runs the given pass instead of the loop’s own, and joins a running one instead of starting it', async () => {
      const loop = loopWith();
      const other = jest.fn(async () => 99);
      expect(await loop.run(other)).toBe(99);
      expect(passes.count).toBe(0);

      const running = loop.run();
      await settle();
      const joined = loop.run(other);
      passes.last.resolve(5);
      expect(await joined).toBe(5);
      expect(await running).toBe(5);
      expect(other).toHaveBeenCalledTimes(1);
    });

    it('hands each pass a signal that is not aborted while the loop runs', async () => {
      const loop = loopWith();
      loop.wake();
      await settle();
      expect(passes.last.signal.aborted).toBe(false);
      passes.last.resolve(1);
      await settle();
      loop.wake();
      await settle();
      expect(passes.calls[0].signal).not.toBe(passes.calls[1].signal);
      await passes.stop(loop);
    });
  });

  describe('wake-up', () => {
    it('runs a pass at once when none is running, ahead of the schedule', async () => {
      const loop = loopWith({ firstDelayMilliseconds: 60_000 });
      loop.start();
      loop.wake();
      await settle();
      expect(passes.count).toBe(1);
      passes.last.resolve(1);
      // The schedule restarts from the woken pass: an interval after it, not at the first delay.
      await elapse(INTERVAL);
      expect(passes.count).toBe(2);
      passes.last.resolve(1);
      await settle();
      await passes.stop(loop);
    });

    it('during a pass, asks for exactly one more right after it (wake-ups meanwhile are one)', async () => {
      const loop = loopWith();
      loop.wake();
      await settle();
      loop.wake();
      loop.wake();
      loop.wake();
      expect(passes.count).toBe(1);
      passes.last.resolve(1);
      await settle();
      expect(passes.count).toBe(2);
      passes.last.resolve(1);
      await elapse(10 * INTERVAL);
      // Not started: nothing but the woken passes.
      expect(passes.count).toBe(2);
    });

    it('runs a pass even before start() (new work arrived) without starting the schedule', async () => {
      const loop = loopWith();
      loop.wake();
      await settle();
      expect(passes.count).toBe(1);
      passes.last.resolve(1);
      await elapse(10 * INTERVAL);
      expect(passes.count).toBe(1);
    });

    it('a wake-up after a failure runs at once, whatever the back-off', async () => {
      const loop = loopWith({ maximumBackoffMilliseconds: 60_000 });
      loop.start();
      await settle();
      passes.last.reject(new Error('down'));
      await settle();
      loop.wake();
      await settle();
      expect(passes.count).toBe(2);
      await passes.stop(loop);
    });
  });

  describe('stop', () => {
    it('waits for the running pass, aborts its signal, and runs nothing scheduled or woken after it', async () => {
      const loop = loopWith();
      loop.start();
      await settle();
      const signal = passes.last.signal;
      let stopped = false;
      const stopping = loop.stop().then(() => (stopped = true));
      await settle();
      expect(signal.aborted).toBe(true);
      expect(stopped).toBe(false);
      loop.wake();
      passes.last.resolve(1);
      await stopping;
      expect(stopped).toBe(true);
      loop.wake();
      loop.start();
      await elapse(100 * INTERVAL);
      expect(passes.count).toBe(1);
    });

    it('drops a wake-up that was asked for during the pass it waits for', async () => {
      const loop = loopWith();
      loop.wake();
      await settle();
      loop.wake();
      const stopping = loop.stop();
      passes.last.resolve(1);
      await stopping;
      await elapse(10 * INTERVAL);
      expect(passes.count).toBe(1);
    });

    it('cancels a pass that was only scheduled', async () => {
      const loop = loopWith({ firstDelayMilliseconds: 500 });
      loop.start();
      await loop.stop();
      await elapse(100 * INTERVAL);
      expect(passes.count).toBe(0);
    });

    it('resolves even when the pass it waits for fails', async () => {
      const loop = loopWith();
      loop.wake();
      await settle();
      const stopping = loop.stop();
      passes.last.reject(new Error('broken'));
      await expect(stopping).resolves.toBeUndefined();
    });

    it('still lets an explicit run() through afterwards, with a live signal and no schedule after it', async () => {
      const loop = loopWith();
      loop.start();
      await loop.stop();
      const explicit = loop.run();
      await settle();
      expect(passes.count).toBe(1);
      expect(passes.last.signal.aborted).toBe(false);
      passes.last.resolve(8);
      expect(await explicit).toBe(8);
      await elapse(100 * INTERVAL);
      expect(passes.count).toBe(1);
    });
  });

  describe('errors and back-off', () => {
    it('logs a failing pass with its name and count, and doubles the rest after each failure in a row up to the cap', async () => {
      const loop = loopWith({ maximumBackoffMilliseconds: 5_000 });
      loop.start();
      await settle();
      const startTimes: number[] = [];
      for (let failure = 1; failure <= 5; failure += 1) {
        startTimes.push(passes.last.startedAt);
        passes.last.reject(new Error(`failure ${failure}`));
        await settle();
        await elapse(loop.nextDelayMilliseconds);
        expect(passes.count).toBe(failure + 1);
      }
      startTimes.push(passes.last.startedAt);
      const gaps = startTimes.slice(1).map((time, index) => time - startTimes[index]);
      expect(gaps).toEqual([2_000, 4_000, 5_000, 5_000, 5_000]);
      expect(logged).toHaveLength(5);
      expect(logged[0]).toEqual({ fields: { err: new Error('failure 1'), failuresInARow: 1 }, message: 'Test pass failed; next pass in 2000 ms' });
      expect(logged[4]).toEqual({ fields: { err: new Error('failure 5'), failuresInARow: 5 }, message: 'Test pass failed; next pass in 5000 ms' });
      await passes.stop(loop);
    });

    it('waits exactly the backed-off time, not less', async () => {
      const loop = loopWith({ maximumBackoffMilliseconds: 60_000 });
      loop.start();
      await settle();
      passes.last.reject(new Error('down'));
      await settle();
      await elapse(2 * INTERVAL - 1);
      expect(passes.count).toBe(1);
      await elapse(1);
      expect(passes.count).toBe(2);
      await passes.stop(loop);
    });

    it('rests the plain interval again after a successful pass', async () => {
      const loop = loopWith({ maximumBackoffMilliseconds: 60_000 });
      loop.start();
      await settle();
      passes.last.reject(new Error('down'));
      await elapse(2 * INTERVAL);
      passes.last.reject(new Error('still down'));
      await elapse(4 * INTERVAL);
      expect(passes.count).toBe(3);
      passes.last.resolve(1);
      await settle();
      expect(loop.nextDelayMilliseconds).toBe(INTERVAL);
      await elapse(INTERVAL);
      expect(passes.count).toBe(4);
      expect(logged).toHaveLength(2);
      await passes.stop(loop);
    });

    it('never rests less than the interval, even when the cap is below it', async () => {
      const loop = loopWith({ maximumBackoffMilliseconds: 10 });
      loop.start();
      await settle();
      passes.last.reject(new Error('down'));
      await settle();
      expect(loop.nextDelayMilliseconds).toBe(INTERVAL);
      await passes.stop(loop);
    });

    it('hands an explicit run() its error, and counts it towards the back-off', async () => {
      const loop = loopWith({ maximumBackoffMilliseconds: 60_000 });
      const explicit = loop.run();
      await settle();
      passes.last.reject(new Error('refused'));
      await expect(explicit).rejects.toThrow('refused');
      expect(loop.nextDelayMilliseconds).toBe(2 * INTERVAL);
      // Not scheduling: the log line promises no next pass.
      expect(logged).toEqual([{ fields: { err: new Error('refused'), failuresInARow: 1 }, message: 'Test pass failed' }]);
    });

    it('treats a pass that throws before its first await as a failing pass, and keeps going', async () => {
      let calls = 0;
      const loop = loopWith({
        pass: () => {
          calls += 1;
          if (calls === 1) throw new Error('at once');
          return Promise.resolve(calls);
        },
      });
      loop.start();
      await settle();
      expect(logged.map((entry) => entry.message)).toEqual(['Test pass failed; next pass in 2000 ms']);
      await elapse(2 * INTERVAL);
      expect(calls).toBe(2);
      await passes.stop(loop);
    });

    it('leaves no unhandled rejection behind a failing scheduled or woken pass', async () => {
      const unhandled = jest.fn();
      process.on('unhandledRejection', unhandled);
      try {
        const loop = loopWith();
        loop.wake();
        await settle();
        passes.last.reject(new Error('woken'));
        await settle();
        loop.start();
        await elapse(2 * INTERVAL);
        passes.last.reject(new Error('scheduled'));
        await settle();
        await loop.stop();
        jest.useRealTimers();
        await new Promise((resolve) => setImmediate(resolve));
        expect(unhandled).not.toHaveBeenCalled();
        expect(logged).toHaveLength(2);
      } finally {
        process.off('unhandledRejection', unhandled);
      }
    });
  });
});
