import { ageOn, ageVerificationOf, ageVerificationOfUser, birthDateOfPersonalNumber } from './session-age.js';

// Noon in Stockholm on a date, so that only the date matters.
const on = (date: string) => new Date(`${date}T11:00:00Z`);
const over18 = (birthDate: string | null, completedAt: Date) =>
  ageVerificationOf({ birthDate, ageOver: 18, source: 'personal-number', country: 'SE', completedAt });

describe('ageVerificationOf', () => {
  it('should answer false the day before the 18th birthday, true on the day and the day after', () => {
    expect(over18('2008-12-07', on('2026-12-06')).result).toBe(false);
    expect(over18('2008-12-07', on('2026-12-07')).result).toBe(true);
    expect(over18('2008-12-07', on('2026-12-08')).result).toBe(true);
  });

  it('should make someone born on 29 February a year older on 1 March of a common year, and on 29 February of a leap year', () => {
    expect(over18('2008-02-29', on('2026-02-28')).result).toBe(false);
    expect(over18('2008-02-29', on('2026-03-01')).result).toBe(true);
    expect(over18('2010-02-29', on('2028-03-01'))).toMatchObject({ result: null, reason: 'age_unknown' });
    expect(over18('2010-02-28', on('2028-02-28')).result).toBe(true);
    expect(ageOn('2004-02-29', on('2022-02-28'))).toBe(17);
    expect(ageOn('2004-02-29', on('2024-02-28'))).toBe(19);
    expect(ageOn('2004-02-29', on('2024-02-29'))).toBe(20);
  });

  it('should reckon the date in Stockholm, not in UTC, around midnight', () => {
    // 23:30 UTC on 6 December is 00:30 on 7 December in Stockholm (CET, UTC+1): the birthday has come.
    expect(over18('2008-12-07', new Date('2026-12-06T23:30:00Z')).result).toBe(true);
    // 22:59 UTC is still 23:59 on 6 December in Stockholm.
    expect(over18('2008-12-07', new Date('2026-12-06T22:59:59Z')).result).toBe(false);
    // In summer (CEST, UTC+2) the date turns at 22:00 UTC.
    expect(over18('2008-06-15', new Date('2026-06-14T22:00:00Z')).result).toBe(true);
    expect(over18('2008-06-15', new Date('2026-06-14T21:59:59Z')).result).toBe(false);
  });

  it('should answer the age asked for with its source and country, and no reason when it is known', () => {
    expect(
      ageVerificationOf({
        birthDate: '2010-01-01',
        ageOver: 16,
        source: 'upstream-birthdate',
        country: 'NO',
        completedAt: on('2026-12-07'),
      }),
    ).toEqual({
      ageOver: 16,
      result: true,
      country: 'NO',
      source: 'upstream-birthdate',
    });
    expect(
      ageVerificationOf({ birthDate: '2010-01-01', ageOver: 21, source: 'idcard', country: 'SE', completedAt: on('2026-12-07') }).result,
    ).toBe(false);
  });

  it('should answer null with age_unknown for no birth date, a date that does not exist, or one ahead', () => {
    for (const birthDate of [null, '2008-13-01', '2008-04-31', '2030-01-01', '08-01-01'])
      expect(over18(birthDate, on('2026-12-07'))).toEqual({
        ageOver: 18,
        result: null,
        country: 'SE',
        source: 'personal-number',
        reason: 'age_unknown',
      });
  });
});

describe('birthDateOfPersonalNumber', () => {
  it('should read the date of a personal number, and none of a coordination number', () => {
    expect(birthDateOfPersonalNumber('200812079807')).toBe('2008-12-07');
    expect(birthDateOfPersonalNumber('200812679804')).toBeNull();
    expect(birthDateOfPersonalNumber('20081207980')).toBeNull();
  });
});

describe('ageVerificationOfUser', () => {
  const person = { name: 'Anna Andersson', givenName: 'Anna', surname: 'Andersson' };

  it('should prefer a wallet attestation of the very age, then a stated birth date, then the personal number', () => {
    const at = on('2026-12-07');
    expect(ageVerificationOfUser({ ...person, country: 'DE', ageOver: { '18': true }, birthdate: '2015-01-01' }, 18, at)).toEqual({
      ageOver: 18,
      result: true,
      country: 'DE',
      source: 'eudi-age-attestation',
    });
    expect(ageVerificationOfUser({ ...person, country: 'DE', ageOver: { '21': true }, birthdate: '2015-01-01' }, 18, at)).toMatchObject({
      result: false,
      source: 'upstream-birthdate',
    });
    expect(ageVerificationOfUser({ ...person, personalNumber: '200812079807' }, 18, at)).toEqual({
      ageOver: 18,
      result: true,
      country: 'SE',
      source: 'personal-number',
    });
  });

  it('should answer age_unknown from the source that fell short when nothing tells the age', () => {
    const at = on('2026-12-07');
    expect(ageVerificationOfUser({ ...person, country: 'DE', ageOver: { '18': true } }, 21, at)).toEqual({
      ageOver: 21,
      result: null,
      country: 'DE',
      source: 'eudi-age-attestation',
      reason: 'age_unknown',
    });
    expect(ageVerificationOfUser({ ...person, country: 'FI', nationalId: '010170-900X' }, 18, at)).toMatchObject({
      result: null,
      source: 'upstream-birthdate',
      reason: 'age_unknown',
    });
  });

  it('should answer age_unknown for a coordination number', () => {
    expect(ageVerificationOfUser({ ...person, personalNumber: '200812679804' }, 18, on('2026-12-07'))).toEqual({
      ageOver: 18,
      result: null,
      country: 'SE',
      source: 'personal-number',
      reason: 'age_unknown',
    });
  });
});
