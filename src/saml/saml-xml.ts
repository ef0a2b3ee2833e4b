import { inflateRawSync } from 'node:zlib';
import { DOMParser, type Document } from '@xmldom/xmldom';

/** The largest SAML message we read, inflated (docs/saml.md, "Checks"); a real AuthnRequest is a few KiB. */
export const SAML_MESSAGE_MAX_BYTES = 64 * 1024;
/**
 * The deepest element nesting we read (docs/saml.md, "Checks"): a Response with a signed, encrypted
 * assertion nests about ten deep; the parser's time grows with the square of the depth.
 */
export const SAML_MAX_DEPTH = 32;

export class SamlXmlError extends Error {
  override name = 'SamlXmlError';
}

/**
 * The guard before any XML parser sees a message: a size cap, and no document type declaration at
 * all (SAML has none), so no entity can expand or reach outside. A plain substring search: no regex
 * runs over client input.
 */
export function assertSafeXml(xml: string): void {
  if (Buffer.byteLength(xml, 'utf8') > SAML_MESSAGE_MAX_BYTES) throw new SamlXmlError('The SAML message is too large');
  if (xml.includes('<!')) throw new SamlXmlError('The SAML message has a DTD, an entity or a CDATA section');
  if (nestingDepth(xml) > SAML_MAX_DEPTH) throw new SamlXmlError('The SAML message is nested too deep');
}

/**
 * The deepest open element, counted in one pass: a start tag that does not close itself (its end
 * found past quoted attribute values) opens one, an end tag closes one. Only a bound for the guard,
 * so it stops counting at the limit; the parser checks the rest.
 */
function nestingDepth(xml: string): number {
  let depth = 0;
  for (let at = xml.indexOf('<'); at >= 0 && depth <= SAML_MAX_DEPTH; at = xml.indexOf('<', at + 1)) {
    const next = xml[at + 1];
    if (next === '/') depth--;
    if (next === '/' || next === '?') continue;
    let quote = '';
    let end = at + 1;
    for (; end < xml.length; end++) {
      const char = xml[end];
      if (quote) quote = char === quote ? '' : quote;
      else if (char === '"' || char === "'") quote = char;
      else if (char === '>') break;
    }
    if (xml[end - 1] !== '/') depth++;
    at = end;
  }
  return depth;
}

/** HTTP-Redirect's DEFLATE, inflated with a cap so a small query cannot become a huge document. */
export function inflateRedirectMessage(encoded: string): string {
  try {
    return inflateRawSync(Buffer.from(encoded, 'base64'), { maxOutputLength: SAML_MESSAGE_MAX_BYTES }).toString('utf8');
  } catch {
    throw new SamlXmlError('The SAML message is not DEFLATE within the size limit');
  }
}

/** HTTP-POST's base64. */
export function decodePostMessage(encoded: string): string {
  if (encoded.length > (SAML_MESSAGE_MAX_BYTES * 4) / 3 + 4) throw new SamlXmlError('The SAML message is too large');
  return Buffer.from(encoded, 'base64').toString('utf8');
}

/** A guarded parse; any parser warning or error is a refusal. */
export function parseSamlXml(xml: string): Document {
  assertSafeXml(xml);
  const fail = (message: string) => {
    throw new SamlXmlError(`The SAML message is not well-formed XML: ${message.split('\n')[0]}`);
  };
  let document: Document;
  try {
    document = new DOMParser({ onError: (_level, message) => fail(message) }).parseFromString(xml, 'text/xml');
  } catch (error) {
    // xmldom wraps what onError throws in its ParseError.
    throw error instanceof SamlXmlError ? error : new SamlXmlError('The SAML message is not well-formed XML');
  }
  if (!document.documentElement) fail('no root element');
  return document;
}
