import { MAX_ADDRESSES, PerIpWindow } from './per-ip-window.js';

describe(PerIpWindow.name, () => {
  it('should admit the limit per address and minute, then tell when to retry', () => {
    const window = new PerIpWindow(2);
    expect([window.take('a', 0), window.take('a', 1_000), window.take('a', 15_000)]).toEqual([null, null, 45]);
    expect(window.take('b', 15_000)).toBeNull();
    expect(window.take('a', 60_000)).toBeNull();
  });
});

describe(`${PerIpWindow.name} when full`, () => {
  it(`should keep at most ${MAX_ADDRESSES} addresses in a window, keep limiting the known ones, and start empty in the next`, () => {
    const window = new PerIpWindow(1);
    for (let i = 0; i < MAX_ADDRESSES + 500; i++) window.take(`a${i}`, 1_000);
    expect(window.size).toBe(MAX_ADDRESSES);
    expect(window.take('a0', 2_000)).toBe(58);
    expect(window.take(`a${MAX_ADDRESSES + 1}`, 2_000)).toBeNull();
    expect(window.take('a0', 61_000)).toBeNull();
    expect(window.size).toBe(1);
  });
});
