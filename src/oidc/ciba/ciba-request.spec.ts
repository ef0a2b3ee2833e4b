import type { OpenIdFace } from '../../eid-providers/eid-provider.js';
import type { OpenIdProvider } from '../../eid-providers/eid-provider.registry.js';
import { bindingMessageProblem, cibaExpirySeconds, cibaMethodFor, cibaPersonalNumber } from './ciba-request.js';

const SIGN = 'openid https://id.oidc.se/scope/sign';
/** Providers as the registry's cibaMethods hands them out: only the name and the OpenID face matter. */
const providerOf = (name: string, openId: OpenIdFace) => ({ name, openId }) as unknown as OpenIdProvider;
const phoneId = providerOf('phoneid', {
  displayName: 'PhoneID',
  acrValues: [
    { acr: 'urn:example:phoneid', device: 'either' },
    { acr: 'urn:example:phoneid:qr', device: 'qr' },
  ],
  amr: () => ['phoneid'],
  ciba: { acr: 'urn:example:phoneid', channel: 'phone' },
});
const appId = providerOf('appid', {
  displayName: 'AppID',
  acrValues: [{ acr: 'urn:example:appid', device: 'either' }],
  amr: () => ['appid'],
  ciba: { acr: 'urn:example:appid', channel: 'app' },
});
const all = [phoneId, appId];

describe('CIBA request parameters', () => {
  it('should read a personal number from login_hint only with its check digit', () => {
    expect(cibaPersonalNumber('199001011239')).toBe('199001011239');
    expect(cibaPersonalNumber('sub:ssn:198112289874')).toBe('198112289874');
    expect(cibaPersonalNumber('199001011238')).toBeUndefined();
    expect(cibaPersonalNumber('sub:199001011239')).toBeUndefined();
    expect(cibaPersonalNumber('1990010112390')).toBeUndefined();
    expect(cibaPersonalNumber(undefined)).toBeUndefined();
  });

  it('should pick the provider whose CIBA acr is asked, on its own channel, and sign with the sign scope', () => {
    expect(cibaMethodFor('urn:example:phoneid', 'openid', all)).toEqual({
      acr: 'urn:example:phoneid',
      provider: 'phoneid',
      channel: 'phone',
      operation: 'auth',
    });
    expect(cibaMethodFor('urn:example:appid', SIGN, all)).toEqual({
      acr: 'urn:example:appid',
      provider: 'appid',
      channel: 'app',
      operation: 'sign',
    });
  });

  it('should take the first usable provider without acr_values, and nothing the client may not use', () => {
    expect(cibaMethodFor(undefined, 'openid', [appId, phoneId])).toMatchObject({ acr: 'urn:example:appid', channel: 'app' });
    expect(cibaMethodFor('urn:example:appid', 'openid', [phoneId])).toBeUndefined();
    // A login acr that is not the provider's CIBA acr.
    expect(cibaMethodFor('urn:example:phoneid:qr', 'openid', all)).toBeUndefined();
    expect(cibaMethodFor(undefined, 'openid', [])).toBeUndefined();
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
