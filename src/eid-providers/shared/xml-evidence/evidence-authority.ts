// @peculiar/x509 needs the Reflect metadata polyfill loaded before it.
import 'reflect-metadata';
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { SignedXml } from 'xml-crypto';
import { signIdCardVerification, type IdCardVerificationContent } from './xades-signing.js';
import { bankIdSignedDataXml, C14N, KEY_INFO_ID, RSA_SHA256, SHA256, SIGNED_DATA_ID, type BankIdFunction } from './bankid-signature-xml.js';

const crypto = webcrypto;
type CryptoKey = webcrypto.CryptoKey;
const CA_KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const CA_SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
// xml-crypto signs with RSA only, and BankID's user keys are RSA too.
const USER_KEY_ALGORITHM = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
} as const;
const CA_VALIDITY_MS = 20 * 365 * 24 * 3600_000;
const USER_VALIDITY_MS = 2 * 365 * 24 * 3600_000;
const OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1';

export interface EvidenceUser {
  personalNumber: string;
  name: string;
  givenName: string;
  surname: string;
}

export interface IssueEvidenceRequest {
  user: EvidenceUser;
  funcId: BankIdFunction;
  /** Base64, exactly as the RP sent it to the order. */
  userVisibleData?: string;
  userNonVisibleData?: string;
  /** What the OCSP response says of the user's certificate (default good). */
  certificateStatus?: 'good' | 'revoked' | 'unknown';
  now: Date;
}

/** BankID's completionData evidence: base64 XML signature and base64 DER OCSP response. */
export interface IssuedEvidence {
  signature: string;
  ocspResponse: string;
}

/** The persisted form of an authority: the CA certificate and its PKCS#8 key, both PEM. */
export interface EvidenceAuthorityMaterial {
  certificatePem: string;
  privateKeyPem: string;
}

/**
 * A certification authority that plays BankID's part for the simulator (docs/evidence.md): it issues a
 * user certificate per completion, signs bankIdSignedData in BankID's XML shape with the user's key and
 * answers for the certificate with an OCSP response it signs itself (the CA as its own responder).
 */
export class EvidenceAuthority {
  // One user key per authority: certificates differ per completion, generating RSA keys per completion would not.
  private userKey?: Promise<{ publicKey: CryptoKey; privateKeyPem: string }>;

  private constructor(
    readonly certificate: x509.X509Certificate,
    private readonly privateKey: CryptoKey,
  ) {}

  /** A new authority together with its persisted form. */
  static async generate(commonName: string, now: Date): Promise<{ authority: EvidenceAuthority; material: EvidenceAuthorityMaterial }> {
    const keys = await crypto.subtle.generateKey(CA_KEY_ALGORITHM, true, ['sign', 'verify']);
    const certificate = await x509.X509CertificateGenerator.createSelfSigned(
      {
        serialNumber: randomSerial(),
        name: `CN=${commonName}, O=eid-gateway, C=SE`,
        notBefore: new Date(now.getTime() - 3600_000),
        notAfter: new Date(now.getTime() + CA_VALIDITY_MS),
        signingAlgorithm: CA_SIGNING,
        keys,
        extensions: [
          new x509.BasicConstraintsExtension(true, 0, true),
          new x509.KeyUsagesExtension(
            x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
            true,
          ),
          await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
        ],
      },
      crypto,
    );
    const material = {
      certificatePem: certificate.toString('pem'),
      privateKeyPem: x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY'),
    };
    return { authority: await EvidenceAuthority.load(material), material };
  }

  static async load(material: EvidenceAuthorityMaterial): Promise<EvidenceAuthority> {
    const certificate = new x509.X509Certificate(material.certificatePem);
    const der = x509.PemConverter.decodeFirst(material.privateKeyPem);
    const privateKey = await crypto.subtle.importKey('pkcs8', der, CA_KEY_ALGORITHM, false, ['sign']);
    return new EvidenceAuthority(certificate, privateKey);
  }

  get certificatePem(): string {
    return this.certificate.toString('pem');
  }

  async issue(request: IssueEvidenceRequest): Promise<IssuedEvidence> {
    const userKey = await (this.userKey ??= generateUserKey());
    const userCertificate = await this.issueUserCertificate(request.user, userKey.publicKey, request.now);
    const signature = signBankIdData(request, userCertificate, [this.certificate], userKey.privateKeyPem);
    const ocspResponse = await this.ocspResponse(userCertificate, request.certificateStatus ?? 'good', request.now);
    return { signature: Buffer.from(signature, 'utf8').toString('base64'), ocspResponse: Buffer.from(ocspResponse).toString('base64') };
  }

  /** An ID card verification's XAdES (docs/idcard.md), signed with a certificate this CA issues for it. */
  async issueIdCardVerification(content: IdCardVerificationContent, now: Date): Promise<string> {
    const userKey = await (this.userKey ??= generateUserKey());
    const verifier = await x509.X509CertificateGenerator.create(
      {
        serialNumber: randomSerial(),
        subject: `CN=${this.certificate.subjectName.getField('CN')[0] ?? 'eid-gateway'} ID card verification, O=eid-gateway, C=SE`,
        issuer: this.certificate.subjectName,
        notBefore: new Date(now.getTime() - 60_000),
        notAfter: new Date(now.getTime() + USER_VALIDITY_MS),
        signingAlgorithm: CA_SIGNING,
        publicKey: userKey.publicKey,
        signingKey: this.privateKey,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
          await x509.AuthorityKeyIdentifierExtension.create(this.certificate, false, crypto),
        ],
      },
      crypto,
    );
    return signIdCardVerification(content, {
      privateKeyPem: userKey.privateKeyPem,
      certificates: [Buffer.from(verifier.rawData), Buffer.from(this.certificate.rawData)],
    });
  }

  private async issueUserCertificate(user: EvidenceUser, publicKey: CryptoKey, now: Date): Promise<x509.X509Certificate> {
    return x509.X509CertificateGenerator.create(
      {
        serialNumber: randomSerial(),
        subject: [
          { CN: [user.name] },
          { '2.5.4.42': [user.givenName] },
          { '2.5.4.4': [user.surname] },
          { '2.5.4.5': [user.personalNumber] },
          { C: ['SE'] },
        ],
        issuer: this.certificate.subjectName,
        notBefore: new Date(now.getTime() - 60_000),
        notAfter: new Date(now.getTime() + USER_VALIDITY_MS),
        signingAlgorithm: CA_SIGNING,
        publicKey,
        signingKey: this.privateKey,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.nonRepudiation, true),
          await x509.AuthorityKeyIdentifierExtension.create(this.certificate, false, crypto),
        ],
      },
      crypto,
    );
  }

  /** RFC 6960 basic response, signed by the CA itself, naming the responder by key hash. */
  private async ocspResponse(certificate: x509.X509Certificate, status: 'good' | 'revoked' | 'unknown', now: Date): Promise<ArrayBuffer> {
    const issuer = pkijs.Certificate.fromBER(this.certificate.rawData);
    const subject = pkijs.Certificate.fromBER(certificate.rawData);
    const certId = new pkijs.CertID();
    await certId.createForCertificate(subject, { hashAlgorithm: 'SHA-1', issuerCertificate: issuer });
    const certStatus =
      status === 'good'
        ? new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 } })
        : status === 'revoked'
          ? new asn1js.Constructed({
              idBlock: { tagClass: 3, tagNumber: 1 },
              value: [new asn1js.GeneralizedTime({ valueDate: new Date(now.getTime() - 86_400_000) })],
            })
          : new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 2 } });
    const basic = new pkijs.BasicOCSPResponse();
    const keyHash = createHash('sha1').update(issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).digest();
    basic.tbsResponseData.responderID = new asn1js.OctetString({ valueHex: keyHash });
    basic.tbsResponseData.producedAt = now;
    basic.tbsResponseData.responses.push(new pkijs.SingleResponse({ certID: certId, certStatus, thisUpdate: now }));
    await basic.sign(this.privateKey, 'SHA-256');
    const response = new pkijs.OCSPResponse();
    response.responseStatus.valueBlock.valueDec = 0;
    response.responseBytes = new pkijs.ResponseBytes({
      responseType: OCSP_BASIC,
      response: new asn1js.OctetString({ valueHex: basic.toSchema().toBER() }),
    });
    return response.toSchema().toBER();
  }
}

async function generateUserKey(): Promise<{ publicKey: CryptoKey; privateKeyPem: string }> {
  const keys = await crypto.subtle.generateKey(USER_KEY_ALGORITHM, true, ['sign', 'verify']);
  return {
    publicKey: keys.publicKey,
    privateKeyPem: x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY'),
  };
}

/** An enveloping XML-DSig in BankID's shape: references to bankIdSignedData and KeyInfo, RSA-SHA256. */
function signBankIdData(
  request: IssueEvidenceRequest,
  signer: x509.X509Certificate,
  chain: x509.X509Certificate[],
  privateKeyPem: string,
): string {
  const certificates = [signer, ...chain]
    .map((c) => `<X509Certificate>${Buffer.from(c.rawData).toString('base64')}</X509Certificate>`)
    .join('');
  const signed = new SignedXml({
    privateKey: privateKeyPem,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: C14N,
    keyInfoAttributes: { Id: KEY_INFO_ID },
    getKeyInfoContent: () => `<X509Data>${certificates}</X509Data>`,
    objects: [
      {
        content: bankIdSignedDataXml({
          usrVisibleData: request.userVisibleData,
          usrNonVisibleData: request.userNonVisibleData,
          funcId: request.funcId,
          nonce: randomBytes(20).toString('base64'),
        }),
      },
    ],
  });
  signed.addReference({
    xpath: `//*[@Id='${SIGNED_DATA_ID}']`,
    transforms: [C14N],
    digestAlgorithm: SHA256,
    type: 'http://www.bankid.com/signature/v1.0.0/types',
  });
  signed.addReference({ xpath: `//*[@Id='${KEY_INFO_ID}']`, transforms: [C14N], digestAlgorithm: SHA256 });
  signed.computeSignature('<Unsigned/>');
  return `<?xml version="1.0" encoding="UTF-8" standalone="no"?>${signed.getSignatureXml()}`;
}

function randomSerial(): string {
  // Positive 64-bit serials, as RFC 5280 §4.1.2.2 asks.
  const bytes = randomBytes(8);
  bytes[0] &= 0x7f;
  return bytes.toString('hex');
}
