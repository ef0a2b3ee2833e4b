import { acrAsAsked, userFromClaims } from './upstream-claims.js';
import type { UpstreamConfig } from './upstream-oidc.env.js';

const upstream = (extra: Partial<UpstreamConfig> = {}) =>
  ({ name: 'nbid', country: 'NO', claims: { nationalId: 'nnin' }, acrValues: 'urn:bankid:bid urn:bankid:bis', ...extra }) as UpstreamConfig;

describe(userFromClaims.name, () => {
  it('should read the person by the configured identifier and the standard names', () => {
    expect(userFromClaims({ nnin: '01017012345', given_name: 'Kari', family_name: 'Nordmann' }, upstream())).toEqual({
      nationalId: '01017012345',
      name: 'Kari Nordmann',
      givenName: 'Kari',
      surname: 'Nordmann',
      country: 'NO',
    });
  });

  it('should find nobody in an id token with a name but no identifier', () => {
    expect(userFromClaims({ name: 'Kari Nordmann', given_name: 'Kari', family_name: 'Nordmann' }, upstream())).toBeNull();
  });
});

describe(acrAsAsked.name, () => {
  it.each([
    ['urn:bankid:bid', true],
    ['urn:bankid:bis', true],
    ['urn:example:password', false],
    [undefined, false],
  ])('should judge acr %p against acrValues as %p', (acr, expected) => {
    expect(acrAsAsked(acr === undefined ? {} : { acr }, upstream())).toBe(expected);
  });

  it('should take any acr when none was asked for', () => {
    expect(acrAsAsked({ acr: 'anything' }, upstream({ acrValues: undefined }))).toBe(true);
  });
});
