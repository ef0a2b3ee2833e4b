// @peculiar/x509 needs the Reflect metadata polyfill loaded before it.
import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

const crypto = webcrypto;
const EC_KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const EC_SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const CA_VALIDITY_MS = 20 * 365 * 24 * 3600_000;
const LEAF_VALIDITY_MS = 5 * 365 * 24 * 3600_000;

/** A certificate and its PKCS#8 key, both PEM: what the test authorities persist and load. */
export interface CertifiedKey {
  certificatePem: string;
  privateKeyPem: string;
}

/** A CA and one end-entity certificate it issued, for the test environment's verifier and PID issuer. */
export interface TestAuthority {
  ca: CertifiedKey;
  leaf: CertifiedKey;
}

const serial = () =>
  randomBytes(16)
    .toString('hex')
    .replace(/^[89a-f]/, '1');
const pkcs8Pem = async (key: webcrypto.CryptoKey) => x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');

/**
 * A self-signed CA and a signing certificate under it (docs/eudi-wallet.md, "Configuration"): the
 * access certificate the verifier signs its requests with when EUDI_VERIFIER_CERT is unset, or the
 * simulator wallet's PID issuer. `dnsName` puts the public host in the leaf's SAN, as x509_san_dns asks.
 */
export async function generateTestAuthority(commonName: string, now: Date, dnsName?: string): Promise<TestAuthority> {
  const caKeys = await crypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial(),
      name: `CN=${commonName} CA, O=eid-gateway test, C=SE`,
      notBefore: new Date(now.getTime() - 3600_000),
      notAfter: new Date(now.getTime() + CA_VALIDITY_MS),
      signingAlgorithm: EC_SIGNING,
      keys: caKeys,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  const leafKeys = await crypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify']);
  const leaf = await x509.X509CertificateGenerator.create(
    {
      serialNumber: serial(),
      subject: `CN=${commonName}, O=eid-gateway test, C=SE`,
      issuer: ca.subject,
      notBefore: new Date(now.getTime() - 3600_000),
      notAfter: new Date(now.getTime() + LEAF_VALIDITY_MS),
      signingAlgorithm: EC_SIGNING,
      publicKey: leafKeys.publicKey,
      signingKey: caKeys.privateKey,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        await x509.AuthorityKeyIdentifierExtension.create(ca, false, crypto),
        ...(dnsName ? [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: dnsName }], false)] : []),
      ],
    },
    crypto,
  );
  return {
    ca: { certificatePem: ca.toString('pem'), privateKeyPem: await pkcs8Pem(caKeys.privateKey) },
    leaf: { certificatePem: leaf.toString('pem'), privateKeyPem: await pkcs8Pem(leafKeys.privateKey) },
  };
}
