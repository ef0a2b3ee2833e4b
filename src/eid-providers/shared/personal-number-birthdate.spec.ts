import { birthdateOfPersonalNumber } from './personal-number-birthdate.js';

describe(birthdateOfPersonalNumber.name, () => {
  it.each([
    ['199001012393', '1990-01-01'],
    ['200002291234', '2000-02-29'],
  ])('should read the date of birth of %s', (personalNumber, birthdate) => {
    expect(birthdateOfPersonalNumber(personalNumber)).toBe(birthdate);
  });

  it.each([
    ['a coordination number', '199001612393'],
    ['29 February of a common year', '199002291234'],
    ['a short number', '9001012393'],
  ])('should give no date for %s', (_case, personalNumber) => {
    expect(birthdateOfPersonalNumber(personalNumber)).toBeUndefined();
  });
});
