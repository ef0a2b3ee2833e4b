import { decodeHTML } from 'entities';

// Enough for double and triple encoding (%25252e); each round also undoes \u, %u and HTML escapes.
const MAX_DECODE_ROUNDS = 4;

const PERCENT_RUN = /(?:%[0-9a-f]{2})+/gi;
const UNICODE_ESCAPE = /\\u\{([0-9a-f]{1,6})\}|\\u([0-9a-f]{4})|%u([0-9a-f]{4})|\\x([0-9a-f]{2})/gi;
// Look-alikes that NFKC leaves alone but some decoders turn into separators.
const SLASH_LOOKALIKES = /[\u2215\u2044\u29f8]/g;
const BACKSLASH_LOOKALIKES = /[\u2216\u29f5\u29f9]/g;
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Decodes UTF-8 the way lax servers did, accepting overlong forms (%c0%af is "/", %c0%ae is "."),
 * which is how traversal once slipped past IIS and Tomcat. Bytes that are not UTF-8 stay Latin-1.
 */
function decodeUtf8Leniently(bytes: Buffer): string {
  let text = '';
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i];
    const length = lead >= 0xf0 && lead < 0xf8 ? 4 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xc0 && lead < 0xe0 ? 2 : 1;
    let codePoint = length === 1 ? lead : lead & (0xff >> (length + 1));
    let valid = i + length <= bytes.length;
    for (let k = 1; valid && k < length; k++) {
      const next = bytes[i + k];
      valid = (next & 0xc0) === 0x80;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if (!valid || codePoint > 0x10ffff) {
      text += String.fromCharCode(lead);
      i += 1;
    } else {
      text += String.fromCodePoint(codePoint);
      i += length;
    }
  }
  return text;
}

export function percentDecode(text: string, plusIsSpace = false): string {
  const spaced = plusIsSpace && text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  return spaced.replace(PERCENT_RUN, (run) => decodeUtf8Leniently(Buffer.from(run.replace(/%/g, ''), 'hex')));
}

export function unescapeUnicode(text: string): string {
  if (!text.includes('\\') && !text.includes('%')) return text;
  return text.replace(UNICODE_ESCAPE, (_match, braced?: string, u?: string, percentU?: string, x?: string) =>
    String.fromCodePoint(Math.min(parseInt(braced ?? u ?? percentU ?? x ?? '0', 16), 0x10ffff)),
  );
}

/** Case, width and look-alike folding, so ＜ＳＣＲＩＰＴ＞ reads as <script>; NULs dropped (`<scr\0ipt>`). */
export function fold(text: string): string {
  // Plain ASCII has nothing for NFKC and the look-alike maps to do.
  if (ASCII.test(text)) return text.replace(/\0/g, '').toLowerCase();
  return text.normalize('NFKC').replace(SLASH_LOOKALIKES, '/').replace(BACKSLASH_LOOKALIKES, '\\').replace(/\0/g, '').toLowerCase();
}

/**
 * Every form a value may take once some layer decodes it: as sent, then after each round of
 * URL-decoding, unicode unescaping and HTML-entity decoding, each folded. Detection runs on all.
 */
export function decodedForms(value: string, options: { plusIsSpace?: boolean } = {}): string[] {
  const forms = new Set<string>();
  let current = value;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round++) {
    forms.add(fold(current));
    const unescaped = unescapeUnicode(percentDecode(current, options.plusIsSpace === true && round === 0));
    const next = unescaped.includes('&') ? decodeHTML(unescaped) : unescaped;
    if (next === current) break;
    current = next;
  }
  forms.add(fold(current));
  return [...forms];
}
