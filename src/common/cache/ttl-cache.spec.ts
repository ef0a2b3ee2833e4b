import { TtlCache } from './ttl-cache.js';

describe(TtlCache.name, () => {
  it('should return a value until it expires', () => {
    const cache = new TtlCache<string, number>(1_000, 10);
    cache.set('a', 1, 0);
    expect(cache.get('a', 999)).toBe(1);
    expect(cache.get('a', 1_000)).toBeUndefined();
  });

  it('should drop the oldest entry when full', () => {
    const cache = new TtlCache<string, number>(1_000, 2);
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('c', 3, 0);
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).toEqual([undefined, 2, 3]);
  });

  it('should forget entries on request', () => {
    const cache = new TtlCache<string, number>(1_000, 10);
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.delete('a');
    cache.deleteWhere((v) => v === 2);
    expect([cache.get('a', 1), cache.get('b', 1)]).toEqual([undefined, undefined]);
  });
});
