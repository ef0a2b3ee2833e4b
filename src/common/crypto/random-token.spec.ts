import { randomBase62, toBase62 } from './random-token.js';

describe(randomBase62.name, () => {
  it('should give the requested length in the base62 alphabet', () => {
    for (const length of [1, 6, 32, 100]) expect(randomBase62(length)).toMatch(new RegExp(`^[0-9A-Za-z]{${length}}$`));
  });

  it('should spread characters evenly', () => {
    const counts = new Map<string, number>();
    for (const ch of randomBase62(62_000)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Expected 1000 each; 6 sigma of a binomial(62000, 1/62) is about 190.
    for (const n of counts.values()) expect(Math.abs(n - 1000)).toBeLessThan(190);
  });
});

describe(toBase62.name, () => {
  it.each([
    [0, 3, '000'],
    [61, 2, '0z'],
    [62, 2, '10'],
    [0xffffffff, 6, '4gfFC3'],
  ])('should render %p in width %p as %p', (value, width, expected) => {
    expect(toBase62(value, width)).toBe(expected);
  });
});
