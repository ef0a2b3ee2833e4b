import { isEmail } from 'class-validator';

/** A command-line mistake: reported as JSON with exit code 2, no stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function required(flags: Record<string, string | undefined>, name: string): string {
  const value = flags[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

export function optionalDate(flags: Record<string, string | undefined>, name: string): Date | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    throw new UsageError(`--${name} must be an ISO 8601 date or date-time, e.g. 2027-01-31T00:00:00Z`);
  }
  return date;
}

export function optionalPositiveInt(flags: Record<string, string | undefined>, name: string): number | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) {
    throw new UsageError(`--${name} must be a whole number of at least 1`);
  }
  return Number(value);
}

export function optionalList<T extends string>(
  flags: Record<string, string | undefined>,
  name: string,
  allowed?: readonly T[],
): T[] | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = allowed ? items.filter((item) => !allowed.includes(item as T)) : [];
  if (unknown.length > 0) throw new UsageError(`--${name}: unknown ${unknown.join(', ')} (allowed: ${allowed!.join(', ')})`);
  return items as T[];
}

export function oneOf<T extends string>(value: string | undefined, name: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

const E164 = /^\+[1-9]\d{6,14}$/;

export function contact(flags: Record<string, string | undefined>): { email?: string; phone?: string } {
  const { email, phone } = flags;
  if (!email && !phone) throw new UsageError('--email or --phone is required');
  if (email && !isEmail(email)) throw new UsageError('--email must be an e-mail address');
  if (phone && !E164.test(phone)) throw new UsageError('--phone must be an E.164 number, e.g. +46701234567');
  return { email, phone };
}
