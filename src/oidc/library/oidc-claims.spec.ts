import { randomBytes } from 'node:crypto';
import type { IdentifiedUser } from '../../eid-providers/eid-provider.js';
import { accountClaims, birthdateOf, CLAIM, pairwiseSubject, personSubject } from './oidc-claims.js';

describe('OIDC claims', () => {
  it("should give an age login's answer under our claim and Idura's, which leaves out an unknown age", () => {
    const account = { clientId: 'c', subject: 'random', txn: 't' };
    const known = { ageOver: 18, result: true, country: 'SE', source: 'personal-number' } as const;
    expect(accountClaims({ ...account, ageVerification: known }, 'pnr')).toEqual({
      sub: 'random',
      age_verification: known,
      'http://ageverification.criipto.com': { country: 'SE', is_over_18: true },
      txn: 't',
    });
    const unknown = { ageOver: 21, result: null, country: null, source: 'personal-number', reason: 'age_unknown' } as const;
    expect(accountClaims({ ...account, ageVerification: unknown }, null)).toMatchObject({
      age_verification: unknown,
      'http://ageverification.criipto.com': {},
    });
  });

  it('should derive the birthdate, coordination numbers included', () => {
    expect(birthdateOf('199001011239')).toBe('1990-01-01');
    expect(birthdateOf('199001611234')).toBe('1990-01-01');
    expect(birthdateOf('not a number')).toBeUndefined();
  });

  it('should give one person one subject per environment and distinct pairwise subjects per client', () => {
    const key = randomBytes(32);
    const subject = personSubject(key, 'test', '199001011239');
    expect(personSubject(key, 'test', '199001011239')).toBe(subject);
    expect(personSubject(key, 'live', '199001011239')).not.toBe(subject);
    expect(subject).not.toContain('199001011239');
    expect(pairwiseSubject(key, 'a', subject)).toBe(pairwiseSubject(key, 'a', subject));
    expect(pairwiseSubject(key, 'a', subject)).not.toBe(pairwiseSubject(key, 'b', subject));
  });

  it('should put the personal number under the profile name and the client’s plain name', () => {
    const claims = accountClaims(
      {
        clientId: 'c',
        subject: 's',
        user: { personalNumber: '199001011239', name: 'Tess Testsson', givenName: 'Tess', surname: 'Testsson' },
        txn: 'session-id',
        resultToken: 'token',
      },
      'ssn',
    );
    expect(claims).toMatchObject({
      sub: 's',
      [CLAIM.personalIdentityNumber]: '199001011239',
      ssn: '199001011239',
      birthdate: '1990-01-01',
      given_name: 'Tess',
      family_name: 'Testsson',
      eidgw_result: 'token',
      txn: 'session-id',
    });
  });

  it("should put another country's national identity number under nin with its country, and a Swedish one under the OIDC Sweden claim", () => {
    const account = (user: IdentifiedUser) => accountClaims({ clientId: 'c', subject: 's', user, txn: 't' }, 'ssn');
    const person = { name: 'Kari Nordmann', givenName: 'Kari', surname: 'Nordmann' };
    const norwegian = account({ ...person, nationalId: '01017012345', country: 'NO' });
    expect(norwegian).toMatchObject({ nin: '01017012345', nin_issuing_country: 'NO', country: 'NO' });
    expect(norwegian).not.toHaveProperty([CLAIM.personalIdentityNumber]);
    expect(norwegian).not.toHaveProperty('ssn');
    const swedish = account({ ...person, nationalId: '197001019876', country: 'SE' });
    expect(swedish).toMatchObject({ [CLAIM.personalIdentityNumber]: '197001019876', ssn: '197001019876', country: 'SE' });
    expect(swedish).not.toHaveProperty('nin');
  });
});
