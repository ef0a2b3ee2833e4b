import { QUIET_ZONE_MODULES } from './qr-image.js';
import type { QrMatrix } from './qr-matrix.js';

// Numbers as ASCII bytes, made once: formatting and joining strings was most of the cost of a path.
const NUMBERS = Array.from({ length: 256 }, (_, n) => Buffer.from(String(n), 'latin1'));
const RUN_END = Buffer.from('v1h-', 'latin1');
const [M, SPACE, H, Z] = ['M', ' ', 'h', 'z'].map((c) => c.charCodeAt(0));

/**
 * The symbol as one SVG path: each horizontal run of dark modules is one rectangle
 * (`M x y h n v1 h-n z`), in module units, so the image scales without blur. `sizePx` sets the
 * rendered width and height.
 */
export function renderQrSvg(matrix: QrMatrix, sizePx?: number): string {
  const { size, modules } = matrix;
  const side = size + 2 * QUIET_ZONE_MODULES;
  // A row holds at most one run per two modules, each at most 20 bytes (three-digit numbers).
  const path = Buffer.allocUnsafe(size * Math.ceil(size / 2) * 20);
  let length = 0;
  const put = (bytes: Buffer) => {
    for (let i = 0; i < bytes.length; i++) path[length++] = bytes[i];
  };
  for (let row = 0; row < size; row++) {
    const y = NUMBERS[row + QUIET_ZONE_MODULES];
    for (let col = 0; col < size; col++) {
      if (modules[row * size + col] === 0) continue;
      const start = col;
      while (col + 1 < size && modules[row * size + col + 1] === 1) col++;
      const run = NUMBERS[col - start + 1];
      path[length++] = M;
      put(NUMBERS[start + QUIET_ZONE_MODULES]);
      path[length++] = SPACE;
      put(y);
      path[length++] = H;
      put(run);
      put(RUN_END);
      put(run);
      path[length++] = Z;
    }
  }
  const dimensions = sizePx === undefined ? '' : ` width="${sizePx}" height="${sizePx}"`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}"${dimensions} shape-rendering="crispEdges">` +
    `<path fill="#fff" d="M0 0h${side}v${side}H0z"/><path fill="#000" d="${path.toString('latin1', 0, length)}"/></svg>`
  );
}
