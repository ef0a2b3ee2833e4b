import { NON_VISIBLE_DATA_MAX, SIGN_TEXT_MAX_BASE64, base64LengthOf } from '../../sessions/api/dto/sign-and-phone.validators.js';

/** What a signature over OIDC asks the e-ID app for (docs/oidc.md, "Signing"). */
export interface SignOrder {
  userVisibleData: string;
  userVisibleDataFormat?: 'simpleMarkdownV1';
  userNonVisibleData: string;
}

// Strict base64 (a character class and a fixed tail: no backtracking on long input).
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MIME_FORMATS: Record<string, SignOrder['userVisibleDataFormat'] | null> = { 'text/plain': null, 'text/markdown': 'simpleMarkdownV1' };
const isBase64 = (value: string) => value.length % 4 === 0 && BASE64.test(value);

/** UTF-8 text from base64, or undefined when either is broken. */
function textOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || !isBase64(value)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'base64'));
  } catch {
    return undefined;
  }
}

/**
 * The sign message in the reader's language: `message` as `{sv, en}` or one untagged string, or
 * `message#sv`-style members, each base64 of UTF-8 text (the Swedish OIDC profile's user message).
 */
function signMessageText(signMessage: Record<string, unknown>, uiLocales: unknown): string | undefined {
  const tagged = (signMessage.message && typeof signMessage.message === 'object' ? signMessage.message : {}) as Record<string, unknown>;
  const languages = [...(typeof uiLocales === 'string' ? uiLocales.split(' ') : []), 'sv', 'en'].map(
    (tag) => tag.toLowerCase().split('-')[0],
  );
  const candidates = [
    ...languages.flatMap((language) => [tagged[language], signMessage[`message#${language}`]]),
    typeof signMessage.message === 'string' ? signMessage.message : undefined,
  ];
  const chosen = candidates.find((value) => typeof value === 'string');
  return chosen === undefined ? undefined : textOf(chosen);
}

/**
 * `https://id.oidc.se/param/signRequest` (`{tbs_data, sign_message}`, the OIDC Sweden signature
 * extension) as a sign order, or the reason it is refused (the client gets invalid_request).
 */
export function signOrderOf(param: unknown, uiLocales: unknown): { order: SignOrder } | { problem: string } {
  if (typeof param !== 'string' || param.length === 0) return { problem: 'the sign scope needs https://id.oidc.se/param/signRequest' };
  let request: { tbs_data?: unknown; sign_message?: unknown };
  try {
    request = JSON.parse(param) as typeof request;
  } catch {
    return { problem: 'signRequest must be a JSON object' };
  }
  const tbs = request?.tbs_data;
  if (typeof tbs !== 'string' || tbs.length === 0 || tbs.length > NON_VISIBLE_DATA_MAX || !isBase64(tbs)) {
    return { problem: `signRequest.tbs_data must be base64, at most ${NON_VISIBLE_DATA_MAX} characters` };
  }
  const signMessage = request.sign_message;
  if (!signMessage || typeof signMessage !== 'object') return { problem: 'signRequest.sign_message is required' };
  const { mime_type: mimeType = 'text/plain' } = signMessage as { mime_type?: unknown };
  const format = typeof mimeType === 'string' ? MIME_FORMATS[mimeType] : undefined;
  if (format === undefined) return { problem: 'signRequest.sign_message.mime_type must be text/plain or text/markdown' };
  const text = signMessageText(signMessage as Record<string, unknown>, uiLocales);
  if (!text) return { problem: 'signRequest.sign_message.message must be base64 of UTF-8 text' };
  if (base64LengthOf(text) > SIGN_TEXT_MAX_BASE64) {
    return { problem: `the sign message must encode to at most ${SIGN_TEXT_MAX_BASE64} base64 characters` };
  }
  return { order: { userVisibleData: text, userNonVisibleData: tbs, ...(format ? { userVisibleDataFormat: format } : {}) } };
}

/** The signature extension's rule: a signature is never made on an earlier login, and the user sees what they sign. */
export function promptAllowsSigning(prompt: unknown): boolean {
  const values = typeof prompt === 'string' ? prompt.split(' ') : [];
  return values.includes('login') && values.includes('consent');
}
