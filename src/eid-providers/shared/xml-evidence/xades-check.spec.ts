import { EvidenceAuthority } from './evidence-authority.js';
import { checkXades } from './xades-check.js';

const CONTENT = {
  verificationId: 'c0ffee00-1111-4222-8333-444455556666',
  personalNumber: '199001012393',
  verifiedAt: '2026-12-07T09:00:00.000Z',
};

describe(checkXades.name, () => {
  let signature: string;
  beforeAll(async () => {
    const { authority } = await EvidenceAuthority.generate('Test CA', new Date());
    signature = await authority.issueIdCardVerification(CONTENT, new Date());
  });
  const xml = () => Buffer.from(signature, 'base64').toString('utf8');
  const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64');

  it('should verify a XAdES B-B and read its signed content', () => {
    const checked = checkXades(signature);

    expect(checked.valid).toBe(true);
    expect(checked.certificates).toHaveLength(2);
    expect(Object.fromEntries(checked.signedContent!)).toMatchObject(CONTENT);
  });

  it('should refuse content changed after signing', () => {
    expect(checkXades(encode(xml().replace(CONTENT.personalNumber, '191212121212'))).valid).toBe(false);
  });

  it('should refuse signed properties that name another certificate', () => {
    const forged = xml().replace(
      /<ds:DigestValue>[^<]+<\/ds:DigestValue>(?=<\/xades:CertDigest>)/,
      '<ds:DigestValue>AAAA</ds:DigestValue>',
    );

    expect(checkXades(encode(forged)).valid).toBe(false);
  });

  it('should refuse a signature whose SignedProperties reference had its Type removed', () => {
    const plain = xml().replace(' Type="http://uri.etsi.org/01903#SignedProperties"', '');

    expect(checkXades(encode(plain)).valid).toBe(false);
  });

  it.each([
    ['not base64 XML', 'bm90IHhtbA=='],
    ['another root', encode('<root/>')],
  ])('should answer not valid, without throwing, for %s', (_case, input) => {
    expect(checkXades(input)).toEqual({ valid: false, certificates: [] });
  });
});
