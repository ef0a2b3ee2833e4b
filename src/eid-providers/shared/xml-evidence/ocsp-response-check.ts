import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { OcspStatus } from '../../evidence-verification.js';
import { sameCertificate } from './certificate-chain-check.js';
import { isFreshOcspResponse } from './ocsp-freshness.js';

const OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1';
const EXTENDED_KEY_USAGE = '2.5.29.37';
const OCSP_SIGNING = '1.3.6.1.5.5.7.3.9';
/** The hash algorithms a CertID may use (RFC 6960 responders use SHA-1; SHA-2 where configured). */
const CERT_ID_HASHES: Record<string, string> = {
  '1.3.14.3.2.26': 'SHA-1',
  '2.16.840.1.101.3.4.2.1': 'SHA-256',
  '2.16.840.1.101.3.4.2.2': 'SHA-384',
  '2.16.840.1.101.3.4.2.3': 'SHA-512',
};

/**
 * What a DER OCSP response (RFC 6960) said of `certificate`, issued by `issuer`, when the session
 * completed at `completedAt`. `invalid` unless the response is successful, signed by an authorised
 * responder (the issuer itself, or a certificate the issuer gave id-kp-OCSPSigning, §4.2.2.2), names
 * this certificate (CertID) and is fresh at the completion (docs/evidence.md). Never throws.
 */
export async function checkOcspResponse(
  der: Buffer,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  completedAt: Date,
): Promise<OcspStatus> {
  try {
    const response = pkijs.OCSPResponse.fromBER(der);
    if (response.responseStatus.valueBlock.valueDec !== 0 || response.responseBytes?.responseType !== OCSP_BASIC) return 'invalid';
    const basic = pkijs.BasicOCSPResponse.fromBER(response.responseBytes.response.valueBlock.valueHexView);
    const responder = findResponder(basic, issuer);
    if (!responder || !(await isAuthorisedResponder(responder, issuer, completedAt))) return 'invalid';
    const signed = await pkijs
      .getCrypto(true)
      .verifyWithPublicKey(basic.tbsResponseData.tbsView, basic.signature, responder.subjectPublicKeyInfo, basic.signatureAlgorithm);
    if (!signed) return 'invalid';
    const single = await findSingleResponse(basic, certificate, issuer);
    if (!single || !isFreshOcspResponse(single, basic.tbsResponseData.producedAt, completedAt)) return 'invalid';
    return statusOf(single);
  } catch {
    return 'invalid';
  }
}

/** The SingleResponse whose CertID (issuer name and key hashes, serial) is this certificate's. */
async function findSingleResponse(
  basic: pkijs.BasicOCSPResponse,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
): Promise<pkijs.SingleResponse | undefined> {
  for (const single of basic.tbsResponseData.responses) {
    const hashAlgorithm = CERT_ID_HASHES[single.certID.hashAlgorithm.algorithmId];
    if (!hashAlgorithm) continue;
    const expected = new pkijs.CertID();
    await expected.createForCertificate(certificate, { hashAlgorithm, issuerCertificate: issuer });
    if (single.certID.isEqual(expected)) return single;
  }
  return undefined;
}

// CertStatus ::= CHOICE { good [0] IMPLICIT NULL, revoked [1] IMPLICIT RevokedInfo, unknown [2] IMPLICIT UnknownInfo }
function statusOf(single: pkijs.SingleResponse): OcspStatus {
  const tag = (single.certStatus as asn1js.BaseBlock).idBlock.tagNumber;
  return tag === 0 ? 'good' : tag === 1 ? 'revoked' : tag === 2 ? 'unknown' : 'invalid';
}

/** The certificate the ResponderID names: by name or by SHA-1 of its public key. */
function findResponder(basic: pkijs.BasicOCSPResponse, issuer: pkijs.Certificate): pkijs.Certificate | undefined {
  const id: unknown = basic.tbsResponseData.responderID;
  return [issuer, ...(basic.certs ?? [])].find((candidate) => {
    if (id instanceof pkijs.RelativeDistinguishedNames) return candidate.subject.isEqual(id);
    if (id instanceof asn1js.OctetString) {
      const keyHash = createHash('sha1').update(candidate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).digest();
      return keyHash.equals(Buffer.from(id.valueBlock.valueHexView));
    }
    return false;
  });
}

async function isAuthorisedResponder(responder: pkijs.Certificate, issuer: pkijs.Certificate, at: Date): Promise<boolean> {
  if (sameCertificate(responder, issuer)) return true;
  if (at < responder.notBefore.value || at > responder.notAfter.value) return false;
  const usage = responder.extensions?.find((e) => e.extnID === EXTENDED_KEY_USAGE)?.parsedValue as pkijs.ExtKeyUsage | undefined;
  if (!usage?.keyPurposes.includes(OCSP_SIGNING)) return false;
  return responder.issuer.isEqual(issuer.subject) && (await responder.verify(issuer));
}
