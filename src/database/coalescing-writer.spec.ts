import { CoalescingWriter } from './coalescing-writer.js';

describe(CoalescingWriter.name, () => {
  /** A writer that doubles numbers and refuses negative ones, recording the batches it was given. */
  const doubling = (maxBatch = 10) => {
    const batches: number[][] = [];
    const writer = new CoalescingWriter(async (items: number[]) => {
      batches.push(items);
      await new Promise((resolve) => setImmediate(resolve));
      if (items.some((item) => item < 0)) throw new Error('negative');
      return items.map((item) => item * 2);
    }, maxBatch);
    return { writer, batches };
  };

  it('should send the first item at once and the ones that arrive meanwhile together, each with its own result', async () => {
    const { writer, batches } = doubling();
    expect(await Promise.all([1, 2, 3, 4].map((n) => writer.submit(n)))).toEqual([2, 4, 6, 8]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('should cap a batch at maxBatch', async () => {
    const { writer, batches } = doubling(2);
    await Promise.all([1, 2, 3, 4, 5].map((n) => writer.submit(n)));
    expect(batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('should retry a failing batch item by item, so only the bad item fails', async () => {
    const { writer, batches } = doubling();
    const results = await Promise.allSettled([1, 2, -3, 4].map((n) => writer.submit(n)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 2 },
      { status: 'fulfilled', value: 4 },
      { status: 'rejected', reason: new Error('negative') },
      { status: 'fulfilled', value: 8 },
    ]);
    expect(batches).toEqual([[1], [2, -3, 4], [2], [-3], [4]]);
  });

  it('should fail the batch and every item queued behind it at once when the database is away', async () => {
    const batches: number[][] = [];
    // node-postgres's text when a statement's answer never came (a partition).
    const away = new Error('Query read timeout');
    const writer = new CoalescingWriter(async (items: number[]) => {
      batches.push(items);
      await new Promise((resolve) => setImmediate(resolve));
      throw away;
    }, 2);
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => writer.submit(n)));
    expect(results.map((result) => result.status === 'rejected' && result.reason === away)).toEqual([true, true, true, true]);
    expect(batches).toEqual([[1]]);
  });

  it('should send an item at once again after the queue ran dry', async () => {
    const { writer, batches } = doubling();
    await writer.submit(1);
    await writer.submit(2);
    expect(batches).toEqual([[1], [2]]);
  });
});
