import { parseDuration } from './duration.js';

describe(parseDuration.name, () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    ['45', 45_000],
    [' 10s ', 10_000],
  ])('should read %p as %p ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '5 m', '-5s', '1.5h', '5y', 'soon'])('should refuse %p', (text) => {
    expect(parseDuration(text)).toBeNull();
  });
});
