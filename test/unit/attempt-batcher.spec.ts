import { AttemptBatcher } from '../../src/webhooks/attempt-batcher';

describe('AttemptBatcher', () => {
  it('writes an item at once when idle, and what arrives meanwhile as the next batch', async () => {
    const batches: number[][] = [];
    const releases: Array<() => void> = [];
    const batcher = new AttemptBatcher<number>((items) => {
      batches.push(items);
      return new Promise<void>((resolve) => releases.push(resolve));
    });
    const first = batcher.add(1);
    const rest = [batcher.add(2), batcher.add(3), batcher.add(4)];
    expect(batches).toEqual([[1]]);
    releases[0]();
    await first;
    expect(batches).toEqual([[1], [2, 3, 4]]);
    releases[1]();
    await Promise.all(rest);
  });

  it('rejects every item of a failed batch and goes on with the next', async () => {
    let calls = 0;
    const batcher = new AttemptBatcher<string>(() => (++calls === 1 ? Promise.reject(new Error('database away')) : Promise.resolve()));
    const failed = batcher.add('a');
    const later = batcher.add('b');
    await expect(failed).rejects.toThrow('database away');
    await expect(later).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});
