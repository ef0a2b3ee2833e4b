import { ANIMATED_QR, parseQrData, qrAuthCode, qrData } from './animated-qr.js';

// BankID's published example (RP guidelines), also used by fortifiedid/bankidapi and the Rust crate `bankid`.
const TOKEN = '67df3917-fa0d-44e5-b327-edcc928297f8';
const SECRET = 'd28db9a7-4cde-429e-a983-359be676944c';

describe('animated QR frame maths', () => {
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

  it("should make the port's frames with the same rule", () => {
    expect(ANIMATED_QR.frame({ startToken: TOKEN, startSecret: SECRET }, 7)).toBe(qrData(TOKEN, SECRET, 7));
  });
});
