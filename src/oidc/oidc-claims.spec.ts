import { randomBytes } from 'node:crypto';
import { accountClaims, birthdateOf, CLAIM, pairwiseSubject, personSubject } from './oidc-claims.js';

describe('OIDC claims', () => {
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
});
