import { Logger } from '@nestjs/common';
import { TestClock } from '../../../../test/support/test-clock.js';
import { FakeBankIdEvidenceCa, type SignedOrder } from '../../../../test/fakes/bankid-evidence-ca.js';
import type { EvidenceToVerify } from './evidence-verifier.js';
import { EvidenceVerifier } from './evidence-verifier.js';

const USER = { personalNumber: '199001012393', name: 'Test Testsson', givenName: 'Test', surname: 'Testsson' };
const VISIBLE = Buffer.from('Sign the lease for Storgatan 1').toString('base64');
const DAY_MS = 24 * 3600_000;

// The BankID fake's PKI is made by openssl, not by this module: the verifier reads what another
// implementation wrote, in BankID's layout (user, issuing CA, root in KeyInfo; a delegated OCSP
// responder), and refuses what someone controlling a collect answer could forge (docs/evidence.md).
describe(`${EvidenceVerifier.name} with the BankID fake's PKI`, () => {
  const clock = new TestClock();
  const verifier = new EvidenceVerifier(clock);
  let ca: FakeBankIdEvidenceCa;

  const evidence = (order: Partial<SignedOrder> = {}) => ca.evidence({ user: USER, funcId: 'Signing', userVisibleData: VISIBLE, ...order });
  const verify = (issued: { signature: string; ocspResponse: string }, completion: Partial<EvidenceToVerify['completion']> = {}) =>
    verifier.verify({
      ...issued,
      expected: { userVisibleData: VISIBLE },
      trustRoots: [ca.rootPem],
      completion: { operation: 'sign', personalNumber: USER.personalNumber, at: new Date(), ...completion },
    });

  beforeAll(async () => {
    Logger.overrideLogger(false);
    ca = await FakeBankIdEvidenceCa.create();
  });

  afterAll(() => ca?.remove());

  it('should verify a signature chained through an issuing CA, with an OCSP response from a delegated responder', async () => {
    expect(await verify(await evidence())).toEqual({
      status: 'verified',
      signatureValid: true,
      certificateTrusted: true,
      ocspStatus: 'good',
      signedDataMatches: true,
      checkedAt: expect.any(String),
    });
  });

  it('should fail the signature of the broken-signature mode', async () => {
    const result = await verify(await evidence({ brokenSignature: true }));
    expect(result).toMatchObject({
      status: 'failed',
      signatureValid: false,
      certificateTrusted: true,
      ocspStatus: 'good',
      signedDataMatches: false,
    });
  });

  it("should not trust a signer whose certificate copies the issuing CA's name but was not signed by it, even with a genuine OCSP response", async () => {
    const result = await verify(await evidence({ signer: 'impostor-issuer' }));
    expect(result).toMatchObject({ status: 'failed', signatureValid: true, certificateTrusted: false, ocspStatus: 'invalid' });
  });

  it("should not take a root carried in KeyInfo that copies the configured root's name as a trust anchor", async () => {
    const result = await verify(await evidence({ signer: 'impostor-root' }));
    expect(result).toMatchObject({ status: 'failed', signatureValid: true, certificateTrusted: false, ocspStatus: 'invalid' });
  });

  it('should not trust a signer certificate that had expired at the completion, its CAs still valid', async () => {
    const result = await verify(await evidence(), { at: new Date(Date.now() + 400 * DAY_MS) });
    expect(result).toMatchObject({ status: 'failed', signatureValid: true, certificateTrusted: false });
  });

  it.each([
    ['a CA certificate', 'ca'],
    ['a certificate without a signing key usage', 'encipherment'],
  ] as const)('should not trust %s as the signer, though the issuing CA issued it', async (_, signer) => {
    const result = await verify(await evidence({ signer }));
    expect(result).toMatchObject({ status: 'failed', signatureValid: true, certificateTrusted: false });
  });

  // openssl's responses are valid from their production for five minutes (nextUpdate); the window's
  // other edge, and the clock skew allowed, are in ocsp-freshness.spec.ts.
  it('should call an OCSP response invalid when the session completed after its nextUpdate', async () => {
    const result = await verify(await evidence(), { at: new Date(Date.now() + 10 * 60_000) });
    expect(result).toMatchObject({ status: 'failed', certificateTrusted: true, ocspStatus: 'invalid', signedDataMatches: true });
  });

  it("should fail the signed data when the certificate's personal number is not the completion's user", async () => {
    const result = await verify(await evidence(), { personalNumber: '198001019876' });
    expect(result).toMatchObject({
      status: 'failed',
      signatureValid: true,
      certificateTrusted: true,
      ocspStatus: 'good',
      signedDataMatches: false,
    });
  });

  it('should fail the signed data when an identification is presented for a sign session', async () => {
    const result = await verify(await evidence({ funcId: 'Identification' }));
    expect(result).toMatchObject({ status: 'failed', certificateTrusted: true, ocspStatus: 'good', signedDataMatches: false });
  });
});
