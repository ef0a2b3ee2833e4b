const TWELVE_DIGITS = /^\d{12}$/;

/**
 * A Swedish personal number as BankID takes it: 12 digits YYYYMMDDNNNN whose last digit is the
 * Luhn check digit of the ten digits from YYMMDD on (docs/api.md, "Signing and the phone channel").
 */
export function isSwedishPersonalNumber(value: unknown): value is string {
  if (typeof value !== 'string' || !TWELVE_DIGITS.test(value)) return false;
  const digits = [...value.slice(2)].map(Number);
  // Luhn: from the left of the ten digits, every other one doubled starting with the first.
  const sum = digits.slice(0, 9).reduce((total, digit, i) => {
    const weighted = i % 2 === 0 ? digit * 2 : digit;
    return total + (weighted > 9 ? weighted - 9 : weighted);
  }, 0);
  return (10 - (sum % 10)) % 10 === digits[9];
}
