import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { sameCertificate } from './certificate-chain-check.js';

export type OcspStatus = 'good' | 'revoked' | 'unknown' | 'invalid';

const OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1';
const EXTENDED_KEY_USAGE = '2.5.29.37';
const OCSP_SIGNING = '1.3.6.1.5.5.7.3.9';

/**
 * What a DER OCSP response (RFC 6960) says of `certificate`, issued by `issuer`. `invalid` unless the
 * response is successful, signed by an authorised responder (the issuer itself, or a certificate the
 * issuer gave id-kp-OCSPSigning, §4.2.2.2) and names this certificate (CertID). Never throws.
 */
export async function checkOcspResponse(
  der: Buffer,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  at: Date,
): Promise<OcspStatus> {
  try {
    const response = pkijs.OCSPResponse.fromBER(der);
    if (response.responseStatus.valueBlock.valueDec !== 0 || response.responseBytes?.responseType !== OCSP_BASIC) return 'invalid';
    const basic = pkijs.BasicOCSPResponse.fromBER(response.responseBytes.response.valueBlock.valueHexView);
    const responder = findResponder(basic, issuer);
    if (!responder || !(await isAuthorisedResponder(responder, issuer, at))) return 'invalid';
    const signed = await pkijs
      .getCrypto(true)
      .verifyWithPublicKey(basic.tbsResponseData.tbsView, basic.signature, responder.subjectPublicKeyInfo, basic.signatureAlgorithm);
    if (!signed) return 'invalid';
    const { isForCertificate, status } = await basic.getCertificateStatus(certificate, issuer);
    if (!isForCertificate) return 'invalid';
    return status === 0 ? 'good' : status === 1 ? 'revoked' : 'unknown';
  } catch {
    return 'invalid';
  }
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
