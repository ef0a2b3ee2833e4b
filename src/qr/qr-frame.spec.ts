import { qrFrame, qrTimeAt } from './qr-frame.js';

describe('QR frames', () => {
  it.each([
    [0, 0],
    [999, 0],
    [1000, 1],
    [2999, 2],
    [180_000, 180],
    [-5000, 0],
  ])('should count %p ms after the order as qrTime %p', (elapsed, expected) => {
    const orderTime = new Date('2026-11-21T10:00:00.000Z');
    expect(qrTimeAt(orderTime, new Date(orderTime.getTime() + elapsed))).toBe(expected);
  });

  it('should ask an animated source for the frame of its second, and show a static code as it is, without qrTime', () => {
    expect(qrFrame({ kind: 'animated', frameAt: (qrTime) => `frame-${qrTime}` }, 7)).toEqual({ qrData: 'frame-7', qrTime: 7 });
    expect(qrFrame({ kind: 'static', qrData: 'app://link?ref=1' }, 7)).toEqual({ qrData: 'app://link?ref=1' });
  });
});
