import { RecentValue } from './recent-value.js';

describe(RecentValue.name, () => {
  it('should call the source once per interval, concurrent callers included', async () => {
    let calls = 0;
    const recent = new RecentValue(2000, async () => ++calls);
    expect(await Promise.all([recent.get(0), recent.get(0), recent.get(1999)])).toEqual([1, 1, 1]);
    expect(await recent.get(2000)).toBe(2);
  });

  it('should not keep a failure', async () => {
    let fail = true;
    const recent = new RecentValue(2000, async () => {
      if (fail) throw new Error('down');
      return 'up';
    });
    await expect(recent.get(0)).rejects.toThrow('down');
    fail = false;
    expect(await recent.get(1)).toBe('up');
  });
});
