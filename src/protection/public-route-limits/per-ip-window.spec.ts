import { PerIpWindow } from './per-ip-window.js';

describe(PerIpWindow.name, () => {
  it('should admit the limit per address and minute, then tell when to retry', () => {
    const window = new PerIpWindow(2);
    expect([window.take('a', 0), window.take('a', 1_000), window.take('a', 15_000)]).toEqual([null, null, 45]);
    expect(window.take('b', 15_000)).toBeNull();
    expect(window.take('a', 60_000)).toBeNull();
  });
});
