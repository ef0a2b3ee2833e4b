import { LAST_USE_PRECISION_MS, LastUseBatch } from './last-use-batch.js';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);

describe(LastUseBatch.name, () => {
  it('should hand each key noted once to the next take, with its first use, and nothing to the take after', () => {
    const batch = new LastUseBatch();
    batch.note('a', at(0));
    batch.note('b', at(1_000));
    batch.note('a', at(2_000));
    expect(batch.take(at(3_000))).toEqual(
      new Map([
        ['a', at(0)],
        ['b', at(1_000)],
      ]),
    );
    expect(batch.take(at(4_000))).toEqual(new Map());
  });

  it('should note a key at most once a minute, across takes, and again once the minute has passed', () => {
    const batch = new LastUseBatch();
    batch.note('a', at(0));
    batch.take(at(10_000));
    for (const ms of [10_000, 30_000, LAST_USE_PRECISION_MS - 1]) batch.note('a', at(ms));
    expect(batch.take(at(LAST_USE_PRECISION_MS - 1))).toEqual(new Map());
    batch.note('a', at(LAST_USE_PRECISION_MS));
    expect(batch.take(at(LAST_USE_PRECISION_MS))).toEqual(new Map([['a', at(LAST_USE_PRECISION_MS)]]));
  });

  it('should keep each key to its own minute', () => {
    const batch = new LastUseBatch();
    batch.note('a', at(0));
    batch.note('b', at(59_000));
    batch.note('a', at(60_000));
    batch.note('b', at(60_000));
    expect(batch.take(at(60_000))).toEqual(
      new Map([
        ['a', at(60_000)],
        ['b', at(59_000)],
      ]),
    );
  });

  it('should give a batch whose write failed to the next take, unless the key was noted again since', () => {
    const batch = new LastUseBatch();
    batch.note('a', at(0));
    batch.note('b', at(0));
    const failed = batch.take(at(1_000));
    batch.note('b', at(70_000));
    batch.putBack(failed);
    expect(batch.take(at(70_000))).toEqual(
      new Map([
        ['a', at(0)],
        ['b', at(70_000)],
      ]),
    );
  });

  it('should not note a use older than the one noted (a clock that moved back)', () => {
    const batch = new LastUseBatch();
    batch.note('a', at(120_000));
    batch.take(at(120_000));
    batch.note('a', at(0));
    expect(batch.take(at(120_000))).toEqual(new Map());
  });
});
