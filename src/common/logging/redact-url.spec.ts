import { redactUrl } from './redact-url.js';

describe(redactUrl.name, () => {
  it.each([
    ['/api/v1/auth/x/poll?key=eidk_test_abc', '/api/v1/auth/x/poll?key=[redacted]'],
    ['/a?format=png&key=eidk_live_abc&x=1', '/a?format=png&key=[redacted]&x=1'],
    ['/a?KEY=abc', '/a?KEY=[redacted]'],
    ['/a?monkey=1', '/a?monkey=1'],
    ['/health/live', '/health/live'],
    // the query parser decodes names, so `%6Bey` authenticates as `key` does
    ['/a?%6Bey=eidk_test_abc&x=1', '/a?%6Bey=[redacted]&x=1'],
    ['/a?%6b%65%79=eidk_test_abc', '/a?%6b%65%79=[redacted]'],
    ['/a?api%5Fkey=abc', '/a?api%5Fkey=[redacted]'],
    ['/a?%zz=1&key', '/a?%zz=1&key=[redacted]'],
    ['/oidc/interaction/u1?eidgw_nonce=q2Vn8k0f3X1cR7yJtB9wAg', '/oidc/interaction/u1?[redacted]'],
    // the OpenID fronts: no parameter of theirs is logged (login_hint, id_token_hint, code, state)
    ['/oidc/auth?client_id=a&login_hint=199001011239', '/oidc/auth?[redacted]'],
    ['/oidc/session/end?id_token_hint=eyJ.x.y', '/oidc/session/end?[redacted]'],
    ['/upstream/callback?code=abc&state=def', '/upstream/callback?[redacted]'],
    ['/saml/sso?SAMLRequest=fZJNb9sw&SigAlg=x&Signature=y', '/saml/sso?[redacted]'],
    ['/OIDC/auth?login_hint=1', '/OIDC/auth?[redacted]'],
    ['/oidcx?login_hint=1', '/oidcx?login_hint=1'],
  ])('should turn %p into %p', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
