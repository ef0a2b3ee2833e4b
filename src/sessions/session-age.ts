import type { IdentifiedUser } from '../eid-providers/eid-provider.js';

/** The ages a session may be asked to check (docs/age-verification.md). */
export const AGE_THRESHOLDS = [15, 16, 18, 21] as const;
export type AgeThreshold = (typeof AGE_THRESHOLDS)[number];

/**
 * Where the birth date came from, most trusted first (docs/age-verification.md, "Sources"):
 * a digital ID card, a wallet's age attestation, an upstream's `birthdate`, a Swedish personal number.
 */
export type AgeSource = 'idcard' | 'eudi-age-attestation' | 'upstream-birthdate' | 'personal-number';

/** The only answer an age session gives (docs/age-verification.md): no name, no number, no birth date. */
export type AgeVerification = {
  ageOver: AgeThreshold;
  /** null: the age could not be reckoned (`reason` says why). */
  result: boolean | null;
  /** ISO 3166-1 alpha-2 of the e-ID's country; null when the provider names none. */
  country: string | null;
  source: AgeSource;
  reason?: 'age_unknown';
};

/** Age is reckoned on the calendar of Sweden (docs/age-verification.md, "Reckoning"). */
export const AGE_TIME_ZONE = 'Europe/Stockholm';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const stockholmDate = new Intl.DateTimeFormat('en-CA', { timeZone: AGE_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/**
 * The age answer for a birth date (`YYYY-MM-DD`, null when unknown) on the date `completedAt` falls on
 * in Europe/Stockholm. Someone born on 29 February is a year older on 1 March of a common year.
 */
export function ageVerificationOf(input: {
  birthDate: string | null;
  ageOver: AgeThreshold;
  source: AgeSource;
  country: string | null;
  completedAt: Date;
}): AgeVerification {
  const { ageOver, source, country } = input;
  const age = input.birthDate === null ? null : ageOn(input.birthDate, input.completedAt);
  return age === null
    ? { ageOver, result: null, country, source, reason: 'age_unknown' }
    : { ageOver, result: age >= ageOver, country, source };
}

/** Whole years from the birth date to the Stockholm date of `at`; null for a date that does not exist or lies ahead. */
export function ageOn(birthDate: string, at: Date): number | null {
  const birth = calendarDate(birthDate);
  const today = calendarDate(stockholmDate.format(at));
  if (!birth || !today) return null;
  const hadBirthday = today.month > birth.month || (today.month === birth.month && today.day >= birth.day);
  const age = today.year - birth.year - (hadBirthday ? 0 : 1);
  return age >= 0 ? age : null;
}

/** YYYY-MM-DD of a 12-digit Swedish personal number; null for a coordination number (day + 60), which tells no birth date. */
export function birthDateOfPersonalNumber(personalNumber: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})\d{4}$/.exec(personalNumber);
  if (!match || Number(match[3]) > 60) return null;
  const date = `${match[1]}-${match[2]}-${match[3]}`;
  return calendarDate(date) ? date : null;
}

/**
 * The age answer for what a provider identified, from its most trusted source (docs/age-verification.md):
 * a wallet's `age_over_NN` for this very age, else a stated birth date, else the personal number; for a
 * digital ID card, the card's personal number.
 */
export function ageVerificationOfUser(user: IdentifiedUser, ageOver: AgeThreshold, completedAt: Date, onIdCard = false): AgeVerification {
  const attested = user.ageOver?.[String(ageOver)];
  const country = user.country ?? (user.personalNumber ? 'SE' : null);
  // A digital ID card's holder, verified at a counter: the card is the source (docs/idcard.md).
  if (onIdCard)
    return ageVerificationOf({
      birthDate: birthDateOfPersonalNumber(user.personalNumber ?? ''),
      ageOver,
      source: 'idcard',
      country,
      completedAt,
    });
  if (typeof attested === 'boolean') return { ageOver, result: attested, country, source: 'eudi-age-attestation' };
  if (user.birthdate) return ageVerificationOf({ birthDate: user.birthdate, ageOver, source: 'upstream-birthdate', country, completedAt });
  if (user.personalNumber)
    return ageVerificationOf({
      birthDate: birthDateOfPersonalNumber(user.personalNumber),
      ageOver,
      source: 'personal-number',
      country,
      completedAt,
    });
  // Nothing to reckon from: the source is the one that fell short (a wallet's statements of other ages, an upstream's missing birthdate).
  return ageVerificationOf({
    birthDate: null,
    ageOver,
    source: user.ageOver ? 'eudi-age-attestation' : 'upstream-birthdate',
    country,
    completedAt,
  });
}

function calendarDate(text: string): { year: number; month: number; day: number } | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Date.UTC rolls 2023-02-29 over to 1 March: a date that does not exist does not come back as itself.
  const probe = new Date(Date.UTC(year, month - 1, day));
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day ? { year, month, day } : null;
}
