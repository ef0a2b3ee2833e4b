import { negotiateQrFormat } from './qr-format.js';

describe(negotiateQrFormat.name, () => {
  it.each([
    [undefined, undefined, 'json'],
    [undefined, 'application/json', 'json'],
    [undefined, '*/*', 'json'],
    [undefined, 'image/png', 'png'],
    [undefined, 'image/svg+xml', 'svg'],
    [undefined, 'image/svg+xml, image/png;q=0.9', 'svg'],
    [undefined, 'image/png, image/svg+xml', 'png'],
    ['svg', 'image/png', 'svg'],
    ['json', 'image/png', 'json'],
  ] as const)('format %p with Accept %p → %p', (format, accept, expected) => {
    expect(negotiateQrFormat(format, accept)).toBe(expected);
  });
});
