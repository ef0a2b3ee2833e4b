import type { QrMatrix } from './qr-matrix.js';

/** ISO/IEC 18004 asks for a quiet zone of four modules around the symbol. */
export const QUIET_ZONE_MODULES = 4;

/** Pixel size limits for `?size=`: below this a phone cannot resolve version 6; above, it only costs bandwidth. */
export const MIN_IMAGE_PX = 100;
export const MAX_IMAGE_PX = 2000;
/** Module size when no pixel size is asked for: 294 px for an animated frame (docs/providers.md). */
const DEFAULT_MODULE_PX = 6;

/** Whole pixels per module, so every module is a crisp square: the largest that fits `sizePx`. */
export function modulePixels(matrix: QrMatrix, sizePx?: number): number {
  if (sizePx === undefined) return DEFAULT_MODULE_PX;
  return Math.max(1, Math.floor(sizePx / (matrix.size + 2 * QUIET_ZONE_MODULES)));
}
