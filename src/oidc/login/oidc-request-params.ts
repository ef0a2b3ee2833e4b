import { isSwedishPersonalNumber } from '../../common/validation/swedish-personal-number.js';

/**
 * login_hint as a personal number: 12 digits, `YYYYMMDD-NNNN`, or either after `sub:` or `sub:ssn:`
 * (CIBA's spelling); `valid: false` for one that fails its check digit (docs/oidc.md, "Request parameters").
 */
export function loginHintPersonalNumber(loginHint: unknown): { digits: string; valid: boolean } | undefined {
  if (typeof loginHint !== 'string') return undefined;
  const match = /^(?:sub:(?:ssn:)?)?(\d{8})-?(\d{4})$/.exec(loginHint);
  if (!match) return undefined;
  const digits = match[1] + match[2];
  return { digits, valid: isSwedishPersonalNumber(digits) };
}

// Separators people write inside a number: `19900101-1239`, `900101+1239`, `1990 0101 1239`.
const NUMBER_SEPARATORS = new Set(['-', '+', ' ', '.']);

/**
 * Whether a hint may carry a personal number in any spelling: a run of ten or more digits, separators
 * inside it ignored. Such a hint is refused outside PAR whatever its form (docs/oidc.md).
 */
export function mayCarryPersonalNumber(loginHint: unknown): boolean {
  if (typeof loginHint !== 'string') return false;
  // A plain scan, not a regular expression: linear on any input.
  let run = 0;
  for (const character of loginHint) {
    if (character >= '0' && character <= '9') run++;
    else if (!NUMBER_SEPARATORS.has(character)) run = 0;
    if (run >= 10) return true;
  }
  return false;
}

const MAX_TEXT = 1500;

/**
 * `https://id.oidc.se/param/userMessage` as the text the app shows: a plain string, or
 * `{message: {sv, en}, mime_type?}` read in the page's language (docs/oidc.md, "Request parameters").
 */
export function userVisibleDataOf(param: unknown, uiLocales: unknown): string | undefined {
  if (typeof param !== 'string' || param.length === 0) return undefined;
  let text: string | undefined = param;
  if (param.startsWith('{')) {
    try {
      const parsed = JSON.parse(param) as { message?: Record<string, unknown> };
      const languages = [...(typeof uiLocales === 'string' ? uiLocales.split(' ') : []), 'sv', 'en'];
      const message = parsed.message ?? {};
      text = languages.map((tag) => message[tag.toLowerCase().split('-')[0]]).find((value): value is string => typeof value === 'string');
    } catch {
      text = undefined;
    }
  }
  return text ? text.slice(0, MAX_TEXT) : undefined;
}
