import QRCode from 'qrcode';
import { createHmac } from 'node:crypto';
import { qrMatrix } from './qr-matrix.js';

// Six letters, as the animated frames' prefix has.
const PREFIX = 'eidapp';
const TOKEN = '67df3917-fa0d-44e5-b327-edcc928297f8';
// An animated frame as the providers make them (docs/providers.md): prefix, token, second, HMAC.
const hmac = (qrTime: number) => createHmac('sha256', 'd28db9a7-4cde-429e-a983-359be676944c').update(String(qrTime)).digest('hex');
const frame = (qrTime: number) => `${PREFIX}.${TOKEN}.${qrTime}.${hmac(qrTime)}`;

function qrcodeOwn(text: string) {
  const symbol = QRCode.create([{ data: Buffer.from(text), mode: 'byte' }], { errorCorrectionLevel: 'L' });
  return { size: symbol.modules.size, mask: symbol.maskPattern, modules: Array.from(symbol.modules.data) };
}

describe(qrMatrix.name, () => {
  it('should make the very symbol qrcode makes (same mask, same modules) for 300 animated frames', () => {
    const differing = Array.from({ length: 300 }, (_, qrTime) => qrTime).filter((qrTime) => {
      const ours = qrMatrix(frame(qrTime));
      const theirs = QRCode.create([{ data: Buffer.from(frame(qrTime)), mode: 'byte' }], { errorCorrectionLevel: 'L' });
      return ours.mask !== theirs.maskPattern || !Buffer.from(ours.modules).equals(Buffer.from(theirs.modules.data));
    });
    expect(differing).toEqual([]);
  });

  it.each([1, 20, 60, 200, 400, 1200])('should match qrcode for %p bytes (other versions, multi-word lines)', (length) => {
    for (let seed = 0; seed < 5; seed++) {
      const text = Array.from({ length }, (_, i) => String.fromCharCode(33 + ((i * 7 + seed * 13) % 90))).join('');
      const ours = qrMatrix(text);
      expect({ size: ours.size, mask: ours.mask, modules: Array.from(ours.modules) }).toEqual(qrcodeOwn(text));
    }
  });

  it('should give animated frames version 6 (41 modules) at error correction L', () => {
    expect(qrMatrix(frame(179)).size).toBe(41);
  });
});
