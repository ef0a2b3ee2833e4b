import { Injectable } from '@nestjs/common';
import { modulePixels } from './qr-image.js';
import { qrMatrix } from './qr-matrix.js';
import { renderQrPng } from './qr-png.js';
import { renderQrSvg } from './qr-svg.js';

export type QrImageFormat = 'png' | 'svg';

interface CachedFrame {
  expiresAt: number;
  image: Buffer | string;
}

// A frame changes every second; keeping it two seconds covers requests that straddle the boundary.
const FRAME_LIFETIME_MS = 2_000;

/**
 * Renders QR frames (about 0.4 ms for PNG, 0.25 ms for SVG: docs/benchmarks-qr.md), each at most once
 * however many viewers of one session ask within its second.
 */
@Injectable()
export class QrRendererService {
  private readonly frames = new Map<string, CachedFrame>();
  private lastSweepMs = 0;

  render(cacheKey: string, data: string, format: QrImageFormat, sizePx: number | undefined, nowMs: number): Buffer | string {
    const key = `${cacheKey}:${format}:${sizePx ?? ''}:${data}`;
    const cached = this.frames.get(key);
    if (cached && cached.expiresAt > nowMs) return cached.image;
    this.evictExpired(nowMs);
    const matrix = qrMatrix(data);
    const image = format === 'png' ? renderQrPng(matrix, modulePixels(matrix, sizePx)) : renderQrSvg(matrix, sizePx);
    this.frames.set(key, { expiresAt: nowMs + FRAME_LIFETIME_MS, image });
    return image;
  }

  // At most one sweep a second, so a thousand sessions do not make every miss walk the whole cache.
  private evictExpired(nowMs: number): void {
    if (nowMs - this.lastSweepMs < 1_000) return;
    this.lastSweepMs = nowMs;
    for (const [key, frame] of this.frames) if (frame.expiresAt <= nowMs) this.frames.delete(key);
  }
}
