import { ACR, loginMethodFor } from './oidc-acr.js';

describe(loginMethodFor.name, () => {
  const all = ['bankid', 'freja', 'simulator'];

  it.each([
    [ACR.bankidSameDevice, { provider: 'bankid', device: 'same-device' }],
    [ACR.bankidAnotherDevice, { provider: 'bankid', device: 'qr' }],
    [ACR.bankidQr, { provider: 'bankid', device: 'qr' }],
    [ACR.bankid, { provider: 'bankid', device: 'either' }],
    [ACR.freja, { provider: 'freja', device: 'either' }],
    [ACR.simulator, { provider: 'simulator', device: 'either' }],
  ])('should map %s to its provider and device', (acr, expected) => {
    expect(loginMethodFor(acr, all, 'test')).toEqual({ acr, ...expected });
  });

  it('should take the first requested value the client may use', () => {
    expect(loginMethodFor(`${ACR.freja} ${ACR.bankidQr}`, ['bankid'], 'live')).toEqual({
      acr: ACR.bankidQr,
      provider: 'bankid',
      device: 'qr',
    });
  });

  it('should default to the first usable provider without acr_values', () => {
    expect(loginMethodFor(undefined, ['simulator', 'bankid'], 'test')).toEqual({
      acr: ACR.simulator,
      provider: 'simulator',
      device: 'either',
    });
  });

  it('should never offer the simulator to a live client', () => {
    expect(loginMethodFor(ACR.simulator, all, 'live')).toBeUndefined();
    expect(loginMethodFor(undefined, ['simulator'], 'live')).toBeUndefined();
  });

  it('should refuse unknown values and providers the client may not use', () => {
    expect(loginMethodFor('urn:example:unknown', all, 'test')).toBeUndefined();
    expect(loginMethodFor(ACR.freja, ['bankid'], 'test')).toBeUndefined();
  });
});
