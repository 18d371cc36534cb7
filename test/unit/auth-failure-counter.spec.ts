import { MemoryFailureCounter } from '../../src/rate-limiting/auth-failure-counter';

describe('MemoryFailureCounter', () => {
  let now: number;
  const clock = () => now;

  beforeEach(() => {
    now = 1_000_000;
  });

  it('counts failures in a window opened by the first one, and reading does not count', async () => {
    const counter = new MemoryFailureCounter(clock);
    expect(await counter.read('a')).toEqual({ count: 0, millisecondsLeft: 0 });
    await counter.increment('a', 60_000);
    now += 10_000;
    expect(await counter.increment('a', 60_000)).toEqual({ count: 2, millisecondsLeft: 50_000 });
    for (let index = 0; index < 5; index += 1) expect(await counter.read('a')).toEqual({ count: 2, millisecondsLeft: 50_000 });
    expect(await counter.read('b')).toEqual({ count: 0, millisecondsLeft: 0 });
  });

  it('starts from zero once the window has ended', async () => {
    const counter = new MemoryFailureCounter(clock);
    await counter.increment('a', 60_000);
    await counter.increment('a', 60_000);
    now += 60_000;
    expect(await counter.read('a')).toEqual({ count: 0, millisecondsLeft: 0 });
    expect(await counter.increment('a', 60_000)).toEqual({ count: 1, millisecondsLeft: 60_000 });
  });

  it('stays bounded when failures come from very many addresses', async () => {
    const counter = new MemoryFailureCounter(clock);
    for (let index = 0; index < 100_001; index += 1) await counter.increment(`address-${index}`, 60_000);
    // The oldest window made room for the newest.
    expect(await counter.read('address-0')).toEqual({ count: 0, millisecondsLeft: 0 });
    expect((await counter.read('address-100000')).count).toBe(1);
  });
});
