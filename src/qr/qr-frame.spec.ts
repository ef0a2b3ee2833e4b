import { parseQrData, qrAuthCode, qrData, qrFrame, qrTimeAt } from './qr-frame.js';

// BankID's published example (RP guidelines), also used by fortifiedid/bankidapi and the Rust crate `bankid`.
const TOKEN = '67df3917-fa0d-44e5-b327-edcc928297f8';
const SECRET = 'd28db9a7-4cde-429e-a983-359be676944c';

describe('QR frame maths', () => {
  it.each([
    [0, 'dc69358e712458a66a7525beef148ae8526b1c71610eff2c16cdffb4cdac9bf8'],
    [1, '949d559bf23403952a94d103e67743126381eda00f0b3cbddbf7c96b1adcbce2'],
    [2, 'a9e5ec59cb4eee4ef4117150abc58fad7a85439a6a96ccbecc3668b41795b3f3'],
  ])('should reproduce the published qrAuthCode for time %p', (time, expected) => {
    expect(qrAuthCode(SECRET, time)).toBe(expected);
  });

  it('should build the published qrData at time 0', () => {
    expect(qrData(TOKEN, SECRET, 0)).toBe(
      'bankid.67df3917-fa0d-44e5-b327-edcc928297f8.0.dc69358e712458a66a7525beef148ae8526b1c71610eff2c16cdffb4cdac9bf8',
    );
  });

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

  it('should parse what it builds', () => {
    expect(parseQrData(qrData(TOKEN, SECRET, 42))).toEqual({ qrStartToken: TOKEN, qrTime: 42, qrAuthCode: qrAuthCode(SECRET, 42) });
  });

  it.each([
    '',
    'bankid.not-a-token.0.' + 'a'.repeat(64),
    `bankid.${TOKEN}.-1.${'a'.repeat(64)}`,
    `bankid.${TOKEN}.0.${'A'.repeat(64)}`,
    `bankid.${TOKEN}.0.${'a'.repeat(63)}`,
    `freja.${TOKEN}.0.${'a'.repeat(64)}`,
  ])('should refuse malformed %p', (text) => {
    expect(parseQrData(text)).toBeNull();
  });

  it('should animate a frame from the secret, and show a static code as it is, without qrTime', () => {
    expect(qrFrame({ kind: 'animated', startToken: TOKEN, startSecret: SECRET }, 7)).toEqual({
      qrData: qrData(TOKEN, SECRET, 7),
      qrTime: 7,
    });
    expect(qrFrame({ kind: 'static', qrData: 'app://link?ref=1' }, 7)).toEqual({ qrData: 'app://link?ref=1' });
  });
});
