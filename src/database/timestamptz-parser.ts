import pg from 'pg';

const TIMESTAMPTZ_OID = 1184;
const ZERO = 48;
const defaultParser = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (text: string) => Date | number | null;

/** The number of the `length` decimal digits at `at`, or -1 when one of them is not a digit. */
function digits(text: string, at: number, length: number): number {
  let value = 0;
  for (let i = at; i < at + length; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * A `timestamptz` as PostgreSQL writes it in UTC (`2026-12-07 08:42:04.123456+00`, the connection's
 * TimeZone, docs/performance.md "Memory at 10,000 pending"), read without the regular expressions of
 * node-postgres's parser: the collector reads two per pending session every tick. The same Date as
 * that parser (milliseconds truncated), which still reads every other form (another offset, BC,
 * infinity, a year before 1000).
 */
export function parseTimestamptz(text: string): Date | number | null {
  const end = text.length - 3;
  const fractionDigits = end - 20;
  if (
    (end !== 19 && (fractionDigits < 1 || fractionDigits > 6 || text.charCodeAt(19) !== 46)) ||
    !text.endsWith('+00') ||
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 32 ||
    text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58 ||
    text.charCodeAt(0) === ZERO
  ) {
    return defaultParser(text);
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  // The first three digits of the fraction are the milliseconds: ".5" is 500, ".123456" 123.
  const msDigits = fractionDigits > 3 ? 3 : fractionDigits > 0 ? fractionDigits : 0;
  const milliseconds = msDigits === 0 ? 0 : digits(text, 20, msDigits) * 10 ** (3 - msDigits);
  const fraction = fractionDigits > 0 ? digits(text, 20, fractionDigits) : 0;
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || milliseconds < 0 || fraction < 0) {
    return defaultParser(text);
  }
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, milliseconds));
}

/** Installs parseTimestamptz for every connection of this process (node-postgres's type registry is global). */
export function installTimestamptzParser(): void {
  pg.types.setTypeParser(TIMESTAMPTZ_OID, parseTimestamptz);
}
