/**
 * The date of birth a Swedish personal number (12 digits, YYYYMMDDNNNC) states, as YYYY-MM-DD; undefined
 * for a coordination number (its day plus 60) or a date that does not exist (docs/idcard.md).
 */
export function birthdateOfPersonalNumber(personalNumber: string): string | undefined {
  if (!/^\d{12}$/.test(personalNumber)) return undefined;
  const [year, month, day] = [personalNumber.slice(0, 4), personalNumber.slice(4, 6), personalNumber.slice(6, 8)];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const real = date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  return real ? `${year}-${month}-${day}` : undefined;
}
