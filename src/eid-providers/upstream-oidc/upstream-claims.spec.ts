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

const mitid = {
  name: 'mitid-erhverv',
  country: 'DK',
  claims: { nationalId: 'dk_cpr' },
  businessClaims: { vatid: 'vatid', mitid_employee: 'employee_id', company_signatory: 'company_signatory', seats: 'seats' },
} as unknown as UpstreamConfig;

describe(`${userFromClaims.name}: business identities`, () => {
  it('should carry the business claims under the front names, plain values only', () => {
    const user = userFromClaims(
      {
        name: 'Mette Hansen',
        dk_cpr: '0101701234',
        vatid: 'DK12345678',
        employee_id: 'e-1',
        company_signatory: false,
        seats: { nested: 1 },
      },
      mitid,
    );
    expect(user).toMatchObject({ nationalId: '0101701234', country: 'DK' });
    expect(user?.business).toEqual({ vatid: 'DK12345678', mitid_employee: 'e-1', company_signatory: false });
  });

  it('should give no business identity when the upstream delivers none, or one too long to be a value', () => {
    expect(userFromClaims({ name: 'Mette Hansen', dk_cpr: '0101701234' }, mitid)).not.toHaveProperty('business');
    expect(userFromClaims({ name: 'M', dk_cpr: '0101701234', vatid: 'x'.repeat(501) }, mitid)).not.toHaveProperty('business');
  });
});
