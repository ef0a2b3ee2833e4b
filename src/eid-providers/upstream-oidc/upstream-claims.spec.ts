import { userFromClaims } from './upstream-claims.js';
import type { UpstreamConfig } from './upstream-oidc.env.js';

const mitid = {
  name: 'mitid-erhverv',
  country: 'DK',
  claims: { nationalId: 'dk_cpr' },
  businessClaims: { vatid: 'vatid', mitid_employee: 'employee_id', company_signatory: 'company_signatory', seats: 'seats' },
} as unknown as UpstreamConfig;

describe(userFromClaims.name, () => {
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
    expect(userFromClaims({ name: 'M', vatid: 'x'.repeat(501) }, mitid)).not.toHaveProperty('business');
  });
});
