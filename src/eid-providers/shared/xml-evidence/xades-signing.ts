import { createHash } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { C14N, RSA_SHA256, SHA256, XMLDSIG_NS } from './bankid-signature-xml.js';
import { XADES_NS, XADES_SIGNED_PROPERTIES_TYPE } from './xades-check.js';

const CONTENT_ID = 'idCardVerification';
const PROPERTIES_ID = 'idCardSignedProperties';
const SIGNATURE_ID = 'idCardSignature';

export interface IdCardVerificationContent {
  verificationId: string;
  personalNumber: string;
  verifiedAt: string;
}

/**
 * An enveloping XAdES Baseline B-B (ETSI TS 103 171) of an ID card verification, as the simulator
 * answers verify (docs/idcard.md): the content names the verification and the holder, the signed
 * properties the signing time and the signer's certificate by digest. xml-crypto does the XML-DSig.
 */
export function signIdCardVerification(
  content: IdCardVerificationContent,
  signer: { privateKeyPem: string; certificates: readonly Buffer[] },
): string {
  const [signerCertificate] = signer.certificates;
  const escape = (text: string) => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
  const contentXml =
    `<idCardVerification xmlns="urn:eid-gateway:simulator:idcard" Id="${CONTENT_ID}">` +
    `<verificationId>${escape(content.verificationId)}</verificationId><personalNumber>${escape(content.personalNumber)}</personalNumber>` +
    `<verifiedAt>${escape(content.verifiedAt)}</verifiedAt></idCardVerification>`;
  const propertiesXml =
    `<xades:QualifyingProperties xmlns:xades="${XADES_NS}" xmlns:ds="${XMLDSIG_NS}" Target="#${SIGNATURE_ID}">` +
    `<xades:SignedProperties Id="${PROPERTIES_ID}"><xades:SignedSignatureProperties>` +
    `<xades:SigningTime>${escape(content.verifiedAt)}</xades:SigningTime><xades:SigningCertificateV2><xades:Cert><xades:CertDigest>` +
    `<ds:DigestMethod Algorithm="${SHA256}"/><ds:DigestValue>${createHash('sha256').update(signerCertificate).digest('base64')}</ds:DigestValue>` +
    `</xades:CertDigest></xades:Cert></xades:SigningCertificateV2></xades:SignedSignatureProperties></xades:SignedProperties>` +
    `</xades:QualifyingProperties>`;
  const signed = new SignedXml({
    privateKey: signer.privateKeyPem,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: C14N,
    getKeyInfoContent: () =>
      `<X509Data>${signer.certificates.map((c) => `<X509Certificate>${c.toString('base64')}</X509Certificate>`).join('')}</X509Data>`,
    objects: [{ content: contentXml }, { content: propertiesXml }],
  });
  signed.addReference({ xpath: `//*[@Id='${CONTENT_ID}']`, transforms: [C14N], digestAlgorithm: SHA256 });
  signed.addReference({
    xpath: `//*[@Id='${PROPERTIES_ID}']`,
    transforms: [C14N],
    digestAlgorithm: SHA256,
    type: XADES_SIGNED_PROPERTIES_TYPE,
  });
  signed.computeSignature('<Unsigned/>', { attrs: { Id: SIGNATURE_ID } });
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>${signed.getSignatureXml()}`, 'utf8').toString('base64');
}
