import { generateKeyPairSync } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { ECDSA_SHA256, EcdsaSha256 } from './ecdsa-sha256.js';
import { AFTER_ROOT_ISSUER, RSA_SHA256, signatureAlgorithmOf, signElement, signingKeyProblem } from './saml-signer.js';

const pem = (curve: string) =>
  generateKeyPairSync('ec', { namedCurve: curve }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const privatePem = p256.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicPem = p256.publicKey.export({ type: 'spki', format: 'pem' }).toString();
// Only the KeyInfo carries it; the checks below verify with the public key.
const key = { privateKey: privatePem, certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' };

const RESPONSE =
  '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r1" Version="2.0">' +
  '<saml:Issuer>https://idp.example.test/saml</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:Response>';

/** xml-crypto's own check of the document's signature, with the algorithm registered as the signer does. */
const verifies = (xml: string): boolean => {
  const verifier = new SignedXml({ publicCert: publicPem });
  verifier.SignatureAlgorithms[ECDSA_SHA256] = EcdsaSha256;
  const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(xml)![0];
  verifier.loadSignature(signature);
  try {
    return verifier.checkSignature(xml);
  } catch {
    return false;
  }
};

describe('EcdsaSha256', () => {
  const algorithm = new EcdsaSha256();

  it('should sign as XML-DSig wants (64 bytes of r||s on P-256) and verify its own signature', () => {
    const signature = algorithm.getSignature('<ds:SignedInfo/>', privatePem);
    expect(Buffer.from(signature, 'base64')).toHaveLength(64);
    expect(algorithm.verifySignature('<ds:SignedInfo/>', publicPem, signature)).toBe(true);
    expect(algorithm.verifySignature('<ds:SignedInfo >', publicPem, signature)).toBe(false);
    expect(algorithm.getAlgorithmName()).toBe('http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256');
  });

  it('should answer through the callback form as well', async () => {
    const signature = await new Promise<string | undefined>((resolve, reject) =>
      algorithm.getSignature('<ds:SignedInfo/>', privatePem, (error, value) => (error ? reject(error) : resolve(value))),
    );
    expect(algorithm.verifySignature('<ds:SignedInfo/>', publicPem, signature!)).toBe(true);
  });

  it('should sign a SAML message with an EC key as ECDSA-SHA256, which xml-crypto verifies, and fail a tampered SignedInfo', () => {
    const signed = signElement(RESPONSE, key, AFTER_ROOT_ISSUER);
    expect(signed).toContain(`<ds:SignatureMethod Algorithm="${ECDSA_SHA256}"/>`);
    expect(verifies(signed)).toBe(true);
    // The Reference's Type is part of SignedInfo but not of the digest: only the signature can catch it.
    const tampered = signed.replace('<ds:Reference URI="#_r1">', '<ds:Reference URI="#_r1" Type="urn:tampered">');
    expect(tampered).not.toBe(signed);
    expect(verifies(tampered)).toBe(false);
    expect(verifies(signed.replace('Success', 'Requester'))).toBe(false);
  });

  it('should pick the algorithm by the key type and take RSA or EC P-256 keys only', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(signatureAlgorithmOf(key)).toBe(ECDSA_SHA256);
    expect(signatureAlgorithmOf({ ...key, privateKey: rsa })).toBe(RSA_SHA256);
    expect(signingKeyProblem(rsa)).toBeUndefined();
    expect(signingKeyProblem(privatePem)).toBeUndefined();
    expect(signingKeyProblem(pem('P-384'))).toBe('must be an RSA or an EC P-256 private key');
    const ed25519 = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(signingKeyProblem(ed25519)).toBe('must be an RSA or an EC P-256 private key');
  });
});
