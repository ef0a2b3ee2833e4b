import { crc32, deflateSync } from 'node:zlib';
import { QUIET_ZONE_MODULES } from './qr-image.js';
import type { QrMatrix } from './qr-matrix.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const IEND = chunk('IEND', Buffer.alloc(0));

/**
 * The symbol as a 1-bit greyscale PNG (RFC 2083), `modulePx` pixels per module. Written by hand
 * because a general PNG encoder (qrcode uses pngjs) works in 32-bit RGBA and filters every row,
 * which is most of its 5–8 ms a frame; a QR code is black and white, and its scanlines repeat
 * `modulePx` times, so fast deflate (level 1) packs them nearly as well as the best level.
 */
export function renderQrPng(matrix: QrMatrix, modulePx: number): Buffer {
  const { size, modules } = matrix;
  const width = (size + 2 * QUIET_ZONE_MODULES) * modulePx;
  const stride = 1 + Math.ceil(width / 8);
  const raw = Buffer.alloc(stride * width, 0xff);
  // Every scanline starts with filter type 0 (none); the image is white, the dark modules are cleared bits.
  for (let y = 0; y < width; y++) raw[y * stride] = 0;
  for (let row = 0; row < size; row++) {
    const first = (row + QUIET_ZONE_MODULES) * modulePx * stride;
    for (let col = 0; col < size; col++) {
      if (modules[row * size + col] === 0) continue;
      const x0 = (col + QUIET_ZONE_MODULES) * modulePx;
      for (let x = x0; x < x0 + modulePx; x++) raw[first + 1 + (x >>> 3)] &= ~(0x80 >>> (x & 7));
    }
    for (let copy = 1; copy < modulePx; copy++) raw.copy(raw, first + copy * stride + 1, first + 1, first + stride);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // colour type: greyscale
  // compression, filter and interlace methods stay 0
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 1 })), IEND]);
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
