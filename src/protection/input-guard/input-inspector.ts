import { PATTERNS, VIEWS, type AttackCategory } from './attack-patterns.js';
import { decodedForms } from './decoded-forms.js';

export type RequestPart = 'path' | 'query' | 'body';

export interface Finding {
  /**
   * `too_many_values` / `too_much_text`: the request carries more strings, or more characters in them,
   * that need the signatures than one request may.
   */
  category: AttackCategory | 'too_many_values' | 'too_much_text';
  part: RequestPart;
}

const CATEGORIES = Object.keys(PATTERNS) as AttackCategory[];
// Letters, digits and a few separators cannot form any signature: ids, keys, e-mails, numbers, dates
// skip the regular expressions. `..`, spaces, quotes, brackets, `%`, `&`, `+` and slashes do not.
const PLAIN = /^[\p{L}\p{N}_.,@:-]*$/u;
// JSON nested deeper than this is refused by validation anyway; the walk stops rather than recurse without end.
const MAX_DEPTH = 32;
// Each string that needs the signatures costs a few microseconds, so a 64 KiB body of 16,000 one-character
// strings would cost 40 ms of CPU; no request of this API carries more than a few dozen
// (docs/protection.md, "Linear time").
export const MAX_GUARDED_VALUES = 1000;
// The characters of those strings, per request: the guard's work grows with them, and it runs before
// authentication. A 64 KiB body (every route but the sign routes) cannot exceed it; a sign body stays
// under it once its large fields are held to their limits (docs/protection.md, "Linear time").
export const MAX_GUARDED_CHARACTERS = 64 * 1024;

const NONE: ReadonlySet<string> = new Set();

const isPlain = (value: string): boolean => PLAIN.test(value) && !value.includes('..');

/** The first attack category a single value shows in any decoded form, or null. */
export function detectAttack(value: string, options: { plusIsSpace?: boolean } = {}): AttackCategory | null {
  if (isPlain(value)) return null;
  const forms = decodedForms(value, options);
  for (const category of CATEGORIES) {
    for (const form of forms) {
      for (const view of VIEWS[category](form)) {
        if (PATTERNS[category].some((pattern) => pattern.test(view))) return category;
      }
    }
  }
  return null;
}

/** Top-level body fields checked before the guard to hold only inert data (base64), which it does not read. */
function* bodyStringsOf(body: unknown, inert: ReadonlySet<string>): Generator<string> {
  if (inert.size === 0 || typeof body !== 'object' || body === null || Array.isArray(body)) {
    yield* stringsOf(body);
    return;
  }
  for (const [key, item] of Object.entries(body)) {
    yield key;
    if (!inert.has(key)) yield* stringsOf(item, 1);
  }
}

function* stringsOf(value: unknown, depth = 0): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return;
  else if (Array.isArray(value)) for (const item of value) yield* stringsOf(item, depth + 1);
  else
    for (const [key, item] of Object.entries(value)) {
      yield key;
      yield* stringsOf(item, depth + 1);
    }
}

/**
 * Inspects what the input guard covers (docs/protection.md): the raw path and its segments, every raw query name and value, and
 * every string (keys too) of a parsed body. Raw, so that double encoding is seen as sent.
 */
export function inspectRequest(parts: { url: string; body?: unknown; inertBodyFields?: ReadonlySet<string> }): Finding | null {
  let budget = MAX_GUARDED_VALUES;
  let characters = MAX_GUARDED_CHARACTERS;
  // null when the value is clean, the finding otherwise; plain values cost nothing and count for nothing.
  const inspect = (value: string, part: RequestPart, options?: { plusIsSpace: boolean }): Finding | null => {
    if (isPlain(value)) return null;
    if (--budget < 0) return { category: 'too_many_values', part };
    characters -= value.length;
    if (characters < 0) return { category: 'too_much_text', part };
    const category = detectAttack(value, options);
    return category ? { category, part } : null;
  };
  const queryStart = parts.url.indexOf('?');
  const path = queryStart === -1 ? parts.url : parts.url.slice(0, queryStart);
  const query = queryStart === -1 ? '' : parts.url.slice(queryStart + 1);

  // The whole path for `/../`, each segment for what starts a value (`alert(1)` as a route parameter);
  // a path of plain segments (`/api/v1/auth/<uuid>/poll`) can hold neither.
  const segments = path.split('/');
  for (const piece of segments.every(isPlain) ? [] : [path, ...segments]) {
    const inPath = inspect(piece, 'path');
    if (inPath) return inPath;
  }
  for (const pair of query.split('&')) {
    const separator = pair.indexOf('=');
    const pieces = separator === -1 ? [pair] : [pair.slice(0, separator), pair.slice(separator + 1)];
    for (const piece of pieces) {
      const inQuery = inspect(piece, 'query', { plusIsSpace: true });
      if (inQuery) return inQuery;
    }
  }
  for (const text of bodyStringsOf(parts.body, parts.inertBodyFields ?? NONE)) {
    const inBody = inspect(text, 'body');
    if (inBody) return inBody;
  }
  return null;
}
