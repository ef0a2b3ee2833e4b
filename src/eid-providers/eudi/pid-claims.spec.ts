import { userFromPid } from './pid-claims.js';

describe(userFromPid.name, () => {
  const pid = { given_name: 'Erika', family_name: 'Mustermann', birthdate: '1984-01-26', nationalities: ['DE'] };

  it('should take the person, the personal administrative number and the issuing country', () => {
    expect(userFromPid({ ...pid, personal_administrative_number: 'X123', issuing_country: 'AT' })).toEqual({
      givenName: 'Erika',
      surname: 'Mustermann',
      name: 'Erika Mustermann',
      birthdate: '1984-01-26',
      nationalId: 'X123',
      country: 'AT',
    });
  });

  it('should fall back to the first nationality, and leave out what is absent or malformed', () => {
    expect(userFromPid({ ...pid, birthdate: '26/01/1984' })).toEqual({
      givenName: 'Erika',
      surname: 'Mustermann',
      name: 'Erika Mustermann',
      country: 'DE',
    });
    expect(userFromPid({ ...pid, nationalities: 'DE' })).not.toHaveProperty('country');
  });

  it('should take the age statements a PID discloses, as booleans only', () => {
    expect(userFromPid({ ...pid, age_over_18: true, age_over_21: false, age_over_16: 'yes' })).toMatchObject({
      ageOver: { '18': true, '21': false },
    });
    expect(userFromPid({ ...pid, age_equal_or_over: { '18': true, '65': false, x: true } })).toMatchObject({
      ageOver: { '18': true, '65': false },
    });
    expect(userFromPid(pid)).not.toHaveProperty('ageOver');
  });

  it('should name nobody without both names', () => {
    expect(userFromPid({ ...pid, family_name: undefined })).toBeNull();
    expect(userFromPid({ ...pid, given_name: ' ' })).toBeNull();
  });
});
