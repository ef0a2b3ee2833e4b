import { bindingMessageProblem, cibaExpirySeconds, cibaMethodFor, cibaPersonalNumber } from './ciba-request.js';

const SIGN = 'openid https://id.oidc.se/scope/sign';

describe('CIBA request parameters', () => {
  it('should read a personal number from login_hint only with its check digit', () => {
    expect(cibaPersonalNumber('199001011239')).toBe('199001011239');
    expect(cibaPersonalNumber('sub:ssn:198112289874')).toBe('198112289874');
    expect(cibaPersonalNumber('199001011238')).toBeUndefined();
    expect(cibaPersonalNumber('sub:199001011239')).toBeUndefined();
    expect(cibaPersonalNumber('1990010112390')).toBeUndefined();
    expect(cibaPersonalNumber(undefined)).toBeUndefined();
  });

  it('should pick the phone for BankID and the simulator, the app push for Freja, and sign with the sign scope', () => {
    const all = ['bankid', 'freja', 'simulator'];
    expect(cibaMethodFor('urn:grn:authn:se:bankid', 'openid', all, 'live')).toEqual({
      acr: 'urn:grn:authn:se:bankid',
      provider: 'bankid',
      channel: 'phone',
      operation: 'auth',
    });
    expect(cibaMethodFor('urn:grn:authn:se:frejaid', SIGN, all, 'live')).toMatchObject({
      provider: 'freja',
      channel: 'app',
      operation: 'sign',
    });
    expect(cibaMethodFor(undefined, 'openid', ['simulator'], 'test')).toMatchObject({ acr: 'urn:eidgw:simulator', channel: 'phone' });
  });

  it('should never give a live client the simulator, nor a method the client may not use', () => {
    expect(cibaMethodFor('urn:eidgw:simulator', 'openid', ['bankid', 'simulator'], 'live')).toBeUndefined();
    expect(cibaMethodFor('urn:grn:authn:se:frejaid', 'openid', ['bankid'], 'test')).toBeUndefined();
    expect(cibaMethodFor('urn:grn:authn:se:bankid:qr', 'openid', ['bankid'], 'test')).toBeUndefined();
  });

  it('should take binding messages up to 1,500 characters and require one to sign', () => {
    expect(bindingMessageProblem('å'.repeat(1500), 'openid')).toBeUndefined();
    expect(bindingMessageProblem('x'.repeat(1501), 'openid')).toContain('1500');
    expect(bindingMessageProblem(undefined, 'openid')).toBeUndefined();
    expect(bindingMessageProblem(undefined, SIGN)).toContain('required');
  });

  it('should honour requested_expiry up to the limit', () => {
    expect(cibaExpirySeconds('30', 180)).toBe(30);
    expect(cibaExpirySeconds('86400', 180)).toBe(180);
    expect(cibaExpirySeconds(undefined, 180)).toBe(180);
    expect(cibaExpirySeconds('-5', 180)).toBe(180);
  });
});
