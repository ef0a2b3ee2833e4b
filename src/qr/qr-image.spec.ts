import { createHmac } from 'node:crypto';
import { PNG } from 'pngjs';
import { decodeQrPng } from '../../test/support/decode-qr.js';
import { modulePixels } from './qr-image.js';
import { qrMatrix } from './qr-matrix.js';
import { renderQrPng } from './qr-png.js';
import { renderQrSvg } from './qr-svg.js';

// An animated frame's shape (docs/providers.md): a six-letter prefix, the start token, the second and its HMAC.
const frame = (qrTime: number) =>
  `eidapp.67df3917-fa0d-44e5-b327-edcc928297f8.${qrTime}.${createHmac('sha256', 'd28db9a7-4cde-429e-a983-359be676944c').update(String(qrTime)).digest('hex')}`;

/** Rasterises our SVG (a white square, then `M x y h n v1 h-n z` rectangles) into a PNG, 4 px per unit. */
function rasteriseSvg(svg: string): Buffer {
  const side = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)![1]);
  const scale = 4;
  const png = new PNG({ width: side * scale, height: side * scale });
  png.data.fill(255);
  const dark = /<path fill="#000" d="([^"]*)"/.exec(svg)![1];
  for (const [, x, y, n] of dark.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let py = Number(y) * scale; py < (Number(y) + 1) * scale; py++) {
      for (let px = Number(x) * scale; px < (Number(x) + Number(n)) * scale; px++)
        png.data.fill(0, (py * png.width + px) * 4, (py * png.width + px) * 4 + 3);
    }
  }
  return PNG.sync.write(png);
}

describe('QR images', () => {
  it.each([0, 7, 42, 179])('should render frame %p as a PNG and an SVG that decoders read back', (qrTime) => {
    const matrix = qrMatrix(frame(qrTime));
    expect(decodeQrPng(renderQrPng(matrix, 6))).toBe(frame(qrTime));
    const svg = renderQrSvg(matrix);
    // The path must describe every module: compare before decoding, so a decoder's error correction hides nothing.
    expect(decodeQrPng(rasteriseSvg(svg))).toBe(frame(qrTime));
  });

  it('should draw exactly the dark modules in the SVG path', () => {
    const matrix = qrMatrix(frame(3));
    const dark = new Set<number>();
    const path = /<path fill="#000" d="([^"]*)"/.exec(renderQrSvg(matrix))![1];
    for (const [, x, y, n] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
      for (let i = 0; i < Number(n); i++) dark.add((Number(y) - 4) * matrix.size + Number(x) - 4 + i);
    }
    const expected = [...matrix.modules.keys()].filter((i) => matrix.modules[i] === 1);
    expect([...dark].sort((a, b) => a - b)).toEqual(expected);
  });

  it('should write a 1-bit greyscale PNG with a quiet zone of four white modules', () => {
    const matrix = qrMatrix(frame(1));
    const png = renderQrPng(matrix, 5);
    const image = PNG.sync.read(png);
    expect({ width: image.width, height: image.height }).toEqual({ width: 245, height: 245 });
    expect(png.readUInt8(24)).toBe(1); // IHDR bit depth
    expect(png.readUInt8(25)).toBe(0); // IHDR colour type
    // The quiet zone is white; the first module of the symbol (a finder corner) is dark.
    expect(image.data[(19 * image.width + 19) * 4]).toBe(255);
    expect(image.data[(20 * image.width + 20) * 4]).toBe(0);
  });

  it.each([
    [undefined, 6],
    [100, 2],
    [294, 6],
    [300, 6],
    [2000, 40],
  ])('should fit size %p px with %p px per module', (sizePx, expected) => {
    expect(modulePixels(qrMatrix(frame(0)), sizePx)).toBe(expected);
  });

  it('should set the SVG size only when one is asked for', () => {
    const matrix = qrMatrix(frame(0));
    expect(renderQrSvg(matrix)).not.toContain('width=');
    expect(renderQrSvg(matrix, 512)).toContain('width="512" height="512"');
  });
});
