import { deflateRawSync } from 'node:zlib';
import { assertSafeXml, inflateRedirectMessage, parseSamlXml, SAML_MAX_DEPTH, SAML_MESSAGE_MAX_BYTES, SamlXmlError } from './saml-xml.js';

const refusal = (work: () => unknown): string | undefined => {
  try {
    work();
    return undefined;
  } catch (error) {
    return error instanceof SamlXmlError ? error.message : `not a refusal: ${String(error)}`;
  }
};

describe('saml-xml', () => {
  it('should parse a plain SAML message', () => {
    expect(
      parseSamlXml('<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_a"/>').documentElement?.localName,
    ).toBe('AuthnRequest');
  });

  it.each([
    ['a DTD with an external entity', '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>'],
    ['a comment', '<r><NameID>alice<!-- -->@evil</NameID></r>'],
    ['a CDATA section', '<r><![CDATA[x]]></r>'],
  ])('should refuse %s before parsing', (_what, xml) => {
    expect(refusal(() => assertSafeXml(xml))).toMatch(/DTD/);
  });

  it('should refuse a message over the size cap and malformed XML as refusals', () => {
    expect(refusal(() => assertSafeXml(`<r>${'a'.repeat(SAML_MESSAGE_MAX_BYTES)}</r>`))).toMatch(/too large/);
    expect(refusal(() => parseSamlXml('<r><unclosed></r>'))).toMatch(/not well-formed/);
  });

  it('should refuse elements nested deeper than any SAML message, before parsing (the parser slows with depth)', () => {
    const nested = (depth: number) => `<r>${'<a x="/>">'.repeat(depth)}${'</a>'.repeat(depth)}</r>`;
    expect(refusal(() => assertSafeXml(nested(SAML_MAX_DEPTH - 1)))).toBeUndefined();
    expect(refusal(() => assertSafeXml(nested(SAML_MAX_DEPTH)))).toMatch(/nested too deep/);
    expect(refusal(() => assertSafeXml(nested(4_000)))).toMatch(/nested too deep/);
    // Self-closed elements and end tags do not count toward the depth.
    expect(refusal(() => assertSafeXml(`<r>${"<a/><b x='>'></b>".repeat(2_000)}</r>`))).toBeUndefined();
  });

  it('should inflate a Redirect message only up to the cap (no DEFLATE bomb)', () => {
    const small = deflateRawSync('<r/>').toString('base64');
    expect(inflateRedirectMessage(small)).toBe('<r/>');
    const bomb = deflateRawSync(Buffer.alloc(SAML_MESSAGE_MAX_BYTES * 16, 0x20)).toString('base64');
    expect(bomb.length).toBeLessThan(10_000);
    expect(refusal(() => inflateRedirectMessage(bomb))).toMatch(/size limit/);
  });
});
