import { isSwedishPersonalNumber } from '../common/validation/swedish-personal-number.js';

/** login_hint as a personal number (12 digits or `sub:<12 digits>`); `valid: false` for one that fails its check digit. */
export function loginHintPersonalNumber(loginHint: unknown): { digits: string; valid: boolean } | undefined {
  if (typeof loginHint !== 'string') return undefined;
  const digits = /^(?:sub:)?(\d{12})$/.exec(loginHint)?.[1];
  return digits ? { digits, valid: isSwedishPersonalNumber(digits) } : undefined;
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
