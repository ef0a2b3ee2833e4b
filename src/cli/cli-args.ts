import { InvalidArgumentError } from 'commander';
import { isEmail, isUUID } from 'class-validator';

// Parsers for option values: commander calls them as it reads the flags and reports what they throw.

export function uuid(value: string): string {
  if (!isUUID(value)) throw new InvalidArgumentError('must be a UUID.');
  return value;
}

export function isoDate(value: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError('must be an ISO 8601 date or date-time, e.g. 2027-01-31T00:00:00Z.');
  }
  return date;
}

export function positiveInt(value: string): number {
  if (!/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) {
    throw new InvalidArgumentError('must be a whole number of at least 1.');
  }
  return Number(value);
}

/** A comma-separated list; with `allowed`, every item must be one of them. */
export function list<T extends string>(allowed?: readonly T[]): (value: string) => T[] {
  return (value) => {
    const items = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = allowed ? items.filter((item) => !allowed.includes(item as T)) : [];
    if (unknown.length > 0) throw new InvalidArgumentError(`unknown ${unknown.join(', ')} (allowed: ${allowed!.join(', ')}).`);
    return items as T[];
  };
}

export function email(value: string): string {
  if (!isEmail(value)) throw new InvalidArgumentError('must be an e-mail address.');
  return value;
}

const E164 = /^\+[1-9]\d{6,14}$/;

export function phone(value: string): string {
  if (!E164.test(value)) throw new InvalidArgumentError('must be an E.164 number, e.g. +46701234567.');
  return value;
}
