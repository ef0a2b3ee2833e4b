import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { TestClock } from '../../../../test/support/test-clock.js';
import { EvidenceAuthority, type IssueEvidenceRequest } from './evidence-authority.js';
import type { EvidenceToVerify } from './evidence-verifier.js';
import { EvidenceVerifier } from './evidence-verifier.js';

const USER = { personalNumber: '199001012393', name: 'Test Testsson', givenName: 'Test', surname: 'Testsson' };
const VISIBLE = Buffer.from('Sign the lease for Storgatan 1').toString('base64');
const NON_VISIBLE = Buffer.from('lease-4711').toString('base64');

const editXml = (signature: string, edit: (xml: string) => string) =>
  Buffer.from(edit(Buffer.from(signature, 'base64').toString('utf8'))).toString('base64');

describe(EvidenceVerifier.name, () => {
  const clock = new TestClock();
  const verifier = new EvidenceVerifier(clock);
  let authority: EvidenceAuthority;
  let otherAuthority: EvidenceAuthority;

  const issue = (overrides: Partial<IssueEvidenceRequest> = {}, by = authority) =>
    by.issue({ user: USER, funcId: 'Signing', userVisibleData: VISIBLE, userNonVisibleData: NON_VISIBLE, now: clock.now(), ...overrides });
  const input = (evidence: { signature: string; ocspResponse: string }, overrides: Partial<EvidenceToVerify> = {}): EvidenceToVerify => ({
    ...evidence,
    expected: { userVisibleData: VISIBLE, userNonVisibleData: NON_VISIBLE },
    trustRoots: [authority.certificatePem],
    completion: { operation: 'sign', personalNumber: USER.personalNumber, at: clock.now() },
    ...overrides,
  });

  beforeAll(async () => {
    Logger.overrideLogger(false);
    clock.freeze();
    authority = (await EvidenceAuthority.generate('Test Evidence CA', clock.now())).authority;
    otherAuthority = (await EvidenceAuthority.generate('Other Evidence CA', clock.now())).authority;
  });

  it('should verify every part of genuine evidence', async () => {
    const result = await verifier.verify(input(await issue()));
    expect(result).toEqual({
      status: 'verified',
      signatureValid: true,
      certificateTrusted: true,
      ocspStatus: 'good',
      signedDataMatches: true,
      checkedAt: clock.now().toISOString(),
    });
  });

  it('should log a warning, without personal data, when a part fails', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      await verifier.verify(input(await issue(), { trustRoots: [] }), { sessionId: 's-1' });
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ sessionId: 's-1', certificateTrusted: false }),
        'Evidence verification failed',
      );
      expect(JSON.stringify(warn.mock.calls)).not.toContain(USER.personalNumber);
    } finally {
      warn.mockRestore();
    }
  });

  it('should verify an authentication that signed no text', async () => {
    const evidence = await issue({ funcId: 'Identification', userVisibleData: undefined, userNonVisibleData: undefined });
    const result = await verifier.verify(
      input(evidence, { expected: {}, completion: { operation: 'auth', personalNumber: USER.personalNumber, at: clock.now() } }),
    );
    expect(result.status).toBe('verified');
  });

  it('should fail the signed data when an identification is presented for a sign session', async () => {
    const evidence = await issue({ funcId: 'Identification' });
    const result = await verifier.verify(input(evidence));
    expect(result).toMatchObject({
      status: 'failed',
      signatureValid: true,
      certificateTrusted: true,
      ocspStatus: 'good',
      signedDataMatches: false,
    });
  });

  it('should fail the signed data when a signature is presented for an auth session', async () => {
    const result = await verifier.verify(
      input(await issue(), { completion: { operation: 'auth', personalNumber: USER.personalNumber, at: clock.now() } }),
    );
    expect(result).toMatchObject({ status: 'failed', signatureValid: true, signedDataMatches: false });
  });

  it("should fail the signed data, naming the part in the log, when the certificate is of another person than the completion's user", async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      const completion = { operation: 'sign' as const, personalNumber: '198001019876', at: clock.now() };
      const result = await verifier.verify(input(await issue(), { completion }), { sessionId: 's-2' });
      expect(result).toMatchObject({
        status: 'failed',
        signatureValid: true,
        certificateTrusted: true,
        ocspStatus: 'good',
        signedDataMatches: false,
      });
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ sessionId: 's-2', mismatches: ['personalNumber'] }),
        'Evidence verification failed',
      );
      expect(JSON.stringify(warn.mock.calls)).not.toContain('198001019876');
    } finally {
      warn.mockRestore();
    }
  });

  it('should fail the signed data when the completion reports no personal number', async () => {
    const result = await verifier.verify(input(await issue(), { completion: { operation: 'sign', at: clock.now() } }));
    expect(result).toMatchObject({ status: 'failed', signedDataMatches: false });
  });

  // The simulator's responses carry no nextUpdate: only "produced within minutes of the completion" holds.
  it('should call an OCSP response produced long before the completion invalid', async () => {
    const evidence = await issue();
    const completion = {
      operation: 'sign' as const,
      personalNumber: USER.personalNumber,
      at: new Date(clock.now().getTime() + 10 * 60_000),
    };
    const result = await verifier.verify(input(evidence, { completion }));
    expect(result).toMatchObject({ status: 'failed', certificateTrusted: true, ocspStatus: 'invalid', signedDataMatches: true });
  });

  it('should accept an OCSP response produced within minutes of the completion', async () => {
    const completion = {
      operation: 'sign' as const,
      personalNumber: USER.personalNumber,
      at: new Date(clock.now().getTime() + 2 * 60_000),
    };
    expect((await verifier.verify(input(await issue(), { completion }))).status).toBe('verified');
  });

  it('should fail the signature when the signed data was changed after signing', async () => {
    const evidence = await issue();
    const tampered = editXml(evidence.signature, (xml) =>
      xml.replace(`>${VISIBLE}<`, `>${Buffer.from('Sign the lease for Storgatan 2').toString('base64')}<`),
    );
    const result = await verifier.verify(input({ ...evidence, signature: tampered }));
    expect(result).toMatchObject({ status: 'failed', signatureValid: false, signedDataMatches: false });
  });

  it('should fail the signature when the signature value was changed', async () => {
    const evidence = await issue();
    const tampered = editXml(evidence.signature, (xml) =>
      xml.replace(/<SignatureValue>(.)/, (_, first: string) => `<SignatureValue>${first === 'A' ? 'B' : 'A'}`),
    );
    const result = await verifier.verify(input({ ...evidence, signature: tampered }));
    expect(result).toMatchObject({ status: 'failed', signatureValid: false });
  });

  it('should fail the signature when KeyInfo carries another certificate than the signing key', async () => {
    const evidence = await issue();
    const foreign = await issue({}, otherAuthority);
    const foreignCertificate = /<X509Certificate>([^<]+)<\/X509Certificate>/.exec(Buffer.from(foreign.signature, 'base64').toString())![1];
    const swapped = editXml(evidence.signature, (xml) =>
      xml.replace(/<X509Certificate>[^<]+<\/X509Certificate>/, `<X509Certificate>${foreignCertificate}</X509Certificate>`),
    );
    const result = await verifier.verify(input({ ...evidence, signature: swapped }));
    expect(result).toMatchObject({ status: 'failed', signatureValid: false });
  });

  it('should not trust a certificate from a root that is not configured', async () => {
    const result = await verifier.verify(input(await issue(), { trustRoots: [otherAuthority.certificatePem] }));
    expect(result).toMatchObject({ status: 'failed', signatureValid: true, certificateTrusted: false, ocspStatus: 'invalid' });
  });

  it('should not trust anything when no roots are configured', async () => {
    const result = await verifier.verify(input(await issue(), { trustRoots: [] }));
    expect(result).toMatchObject({ status: 'failed', certificateTrusted: false });
  });

  it('should not trust a certificate that had expired when the session completed', async () => {
    const evidence = await issue();
    const completion = {
      operation: 'sign' as const,
      personalNumber: USER.personalNumber,
      at: new Date(clock.now().getTime() + 3 * 365 * 24 * 3600_000),
    };
    expect(await verifier.verify(input(evidence, { completion }))).toMatchObject({
      status: 'failed',
      signatureValid: true,
      certificateTrusted: false,
    });
  });

  it.each(['revoked', 'unknown'] as const)('should fail when OCSP says the certificate is %s', async (certificateStatus) => {
    const result = await verifier.verify(input(await issue({ certificateStatus })));
    expect(result).toMatchObject({
      status: 'failed',
      signatureValid: true,
      certificateTrusted: true,
      ocspStatus: certificateStatus,
      signedDataMatches: true,
    });
  });

  it('should call an OCSP response for another certificate invalid', async () => {
    const evidence = await issue();
    const other = await issue();
    const result = await verifier.verify(input({ signature: evidence.signature, ocspResponse: other.ocspResponse }));
    expect(result).toMatchObject({ status: 'failed', ocspStatus: 'invalid' });
  });

  it('should call an OCSP response signed by a responder the issuer did not authorise invalid', async () => {
    const evidence = await issue();
    const foreign = await issue({}, otherAuthority);
    const result = await verifier.verify(input({ signature: evidence.signature, ocspResponse: foreign.ocspResponse }));
    expect(result).toMatchObject({ status: 'failed', ocspStatus: 'invalid' });
  });

  it('should call bytes that are no OCSP response invalid', async () => {
    const evidence = await issue();
    const result = await verifier.verify(input({ ...evidence, ocspResponse: Buffer.from('not der').toString('base64') }));
    expect(result).toMatchObject({ status: 'failed', ocspStatus: 'invalid', signatureValid: true });
  });

  it('should fail the signed data when the signed text differs from what the session sent', async () => {
    const result = await verifier.verify(
      input(await issue(), {
        expected: { userVisibleData: Buffer.from('Something else').toString('base64'), userNonVisibleData: NON_VISIBLE },
      }),
    );
    expect(result).toMatchObject({
      status: 'failed',
      signatureValid: true,
      certificateTrusted: true,
      ocspStatus: 'good',
      signedDataMatches: false,
    });
  });

  it('should fail the signed data when the signature carries a text the session did not send', async () => {
    const result = await verifier.verify(input(await issue(), { expected: { userVisibleData: VISIBLE } }));
    expect(result).toMatchObject({ status: 'failed', signedDataMatches: false });
  });

  it.each([
    ['not base64 XML', 'bm90IHhtbA=='],
    ['an empty string', ''],
    ['XML that is no signature', Buffer.from('<a/>').toString('base64')],
  ])('should fail every part, without throwing, for %s', async (_, signature) => {
    const evidence = await issue();
    const result = await verifier.verify(input({ ...evidence, signature }));
    expect(result).toMatchObject({
      status: 'failed',
      signatureValid: false,
      certificateTrusted: false,
      ocspStatus: 'invalid',
      signedDataMatches: false,
    });
  });
});
