import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompactSign } from 'jose';
import { createFrejaSigner, type FrejaSigner } from '../../../test/fakes/freja-signing-certificates.js';
import { FrejaJwsCertificatesError, FrejaJwsRejected, FrejaJwsVerifier, x5tOf } from './freja-jws.js';

const AUTH_REF = 'a1b2c3';
const DAY = 86_400_000;
const payload = {
  authRef: AUTH_REF,
  status: 'APPROVED',
  userInfoType: 'INFERRED',
  requestedAttributes: { basicUserInfo: { name: 'A', surname: 'B' } },
};

describe(FrejaJwsVerifier.name, () => {
  let dir: string;
  let signer: FrejaSigner;
  let other: FrejaSigner;
  let verifier: FrejaJwsVerifier;
  let now: Date;

  const sign = (
    body: object,
    key: FrejaSigner = signer,
    header: Record<string, unknown> = { alg: 'RS256', x5t: x5tOf(new X509Certificate(signer.cert)) },
  ) =>
    new CompactSign(new TextEncoder().encode(JSON.stringify(body)))
      .setProtectedHeader(header as { alg: string })
      .sign(createPrivateKey(key.key));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'freja-jws-'));
    [signer, other] = await Promise.all([createFrejaSigner(dir, 'signer'), createFrejaSigner(dir, 'other')]);
    // A bundle: Freja publishes the current and the next signing certificate side by side.
    verifier = new FrejaJwsVerifier(`${other.cert}\n${signer.cert}`, 'FREJA_TEST_JWS_CERTS');
    // After the certificates were made: they are valid from the second they were issued.
    now = new Date(Date.now() + 1000);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('should believe details signed by the certificate its x5t names', async () => {
    await expect(verifier.verify(await sign(payload), 'auth', AUTH_REF, now)).resolves.toMatchObject(payload);
  });

  it('should choose the certificate of the bundle by x5t', async () => {
    const jws = await sign(payload, other, { alg: 'RS256', x5t: x5tOf(new X509Certificate(other.cert)) });
    await expect(verifier.verify(jws, 'auth', AUTH_REF, now)).resolves.toMatchObject({ authRef: AUTH_REF });
  });

  it.each([
    ['signed by another key under the configured x5t', () => sign(payload, other)],
    ['naming a certificate that is not configured', () => sign(payload, signer, { alg: 'RS256', x5t: 'AAAA' })],
    ['without x5t', () => sign(payload, signer, { alg: 'RS256' })],
    ['with another algorithm', () => sign(payload, signer, { alg: 'PS256', x5t: x5tOf(new X509Certificate(signer.cert)) })],
    ['about another transaction', () => sign({ ...payload, authRef: 'other' })],
    ['with a status other than APPROVED', () => sign({ ...payload, status: 'CANCELED' })],
    ['with a payload that is not Freja’s', () => sign({ hello: 'world' })],
    ['that is no JWS at all', () => Promise.resolve('not.a.jws')],
  ])('should not believe details %s', async (_case, make) => {
    await expect(verifier.verify(await make(), 'auth', AUTH_REF, now)).rejects.toBeInstanceOf(FrejaJwsRejected);
  });

  it('should believe details only while their certificate is valid (it is for 2 days from now)', async () => {
    const jws = await sign(payload);
    for (const at of [new Date(now.getTime() - DAY), new Date(now.getTime() + 3 * DAY)]) {
      await expect(verifier.verify(jws, 'auth', AUTH_REF, at)).rejects.toThrow('a certificate outside its validity');
      await expect(verifier.check(jws, 'auth', AUTH_REF, at)).resolves.toEqual({
        signatureValid: true,
        certificateTrusted: false,
        signedDataMatches: true,
      });
    }
    await expect(verifier.check(jws, 'auth', AUTH_REF, now)).resolves.toEqual({
      signatureValid: true,
      certificateTrusted: true,
      signedDataMatches: true,
    });
  });

  it('should look for signRef in a signature result', async () => {
    const jws = await sign({ ...payload, authRef: undefined, signRef: 's1' });
    await expect(verifier.verify(jws, 'sign', 's1', now)).resolves.toMatchObject({ signRef: 's1' });
    await expect(verifier.verify(jws, 'auth', 's1', now)).rejects.toBeInstanceOf(FrejaJwsRejected);
  });

  it('should name the variable, never the content, when the certificates cannot be read', () => {
    expect(() => new FrejaJwsVerifier('no pem here', 'FREJA_JWS_CERTS')).toThrow(
      new FrejaJwsCertificatesError('FREJA_JWS_CERTS: no PEM certificate in the file'),
    );
    expect(() => FrejaJwsVerifier.fromFile(join(dir, 'missing.pem'), 'FREJA_JWS_CERTS')).toThrow(
      /FREJA_JWS_CERTS: cannot read the file \(ENOENT\)/,
    );
  });
});
