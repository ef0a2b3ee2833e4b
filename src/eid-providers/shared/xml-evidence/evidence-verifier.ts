// @peculiar/x509 needs the Reflect metadata polyfill loaded before it.
import 'reflect-metadata';
import { Injectable, Logger } from '@nestjs/common';
import { PemConverter } from '@peculiar/x509';
import * as pkijs from 'pkijs';
import { Clock } from '../../../common/clock/clock.js';
import { checkCertificateChain } from '../../../evidence/certificate-chain-check.js';
import type { EvidenceToVerify, EvidenceVerification } from '../../../evidence/evidence-verification.js';
import { checkOcspResponse, type OcspStatus } from '../../../evidence/ocsp-response-check.js';
import { checkXmlSignature } from './xml-signature-check.js';

/**
 * Checks BankID evidence part by part (docs/evidence.md). A failed part makes the whole `failed` and
 * logs a warning; it never throws and never changes the session's outcome.
 */
@Injectable()
export class EvidenceVerifier {
  private readonly logger = new Logger(EvidenceVerifier.name);
  /** Parsed trust roots by PEM: the roots come from configuration, and parsing them cost a tenth of a verification. */
  private readonly parsedRoots = new Map<string, pkijs.Certificate[]>();

  constructor(private readonly clock: Clock) {}

  /** `logContext` (e.g. `{ sessionId }`) goes into the warning; it must hold no personal data. */
  async verify(evidence: EvidenceToVerify, logContext: Record<string, string> = {}): Promise<EvidenceVerification> {
    const now = this.clock.now();
    let parts: Omit<EvidenceVerification, 'status' | 'checkedAt'>;
    try {
      parts = await this.checkParts(evidence, now);
    } catch {
      parts = { signatureValid: false, certificateTrusted: false, ocspStatus: 'invalid', signedDataMatches: false };
    }
    const verified = parts.signatureValid && parts.certificateTrusted && parts.ocspStatus === 'good' && parts.signedDataMatches;
    if (!verified) this.logger.warn({ ...logContext, ...parts }, 'Evidence verification failed');
    return { status: verified ? 'verified' : 'failed', ...parts, checkedAt: now.toISOString() };
  }

  private async checkParts(evidence: EvidenceToVerify, now: Date): Promise<Omit<EvidenceVerification, 'status' | 'checkedAt'>> {
    const xml = checkXmlSignature(evidence.signature);
    const [signer, ...carried] = xml.certificates.map(parseCertificate);
    const roots = evidence.trustRoots.flatMap((pem) => this.rootsOf(pem));
    const chain = signer
      ? await checkCertificateChain(
          signer,
          carried.filter((c) => c !== undefined),
          roots,
          now,
        )
      : { trusted: false };
    let ocspStatus: OcspStatus = 'invalid';
    if (signer && chain.issuer)
      ocspStatus = await checkOcspResponse(Buffer.from(evidence.ocspResponse, 'base64'), signer, chain.issuer, now);
    const signedDataMatches =
      xml.signedData !== undefined &&
      sameBase64(xml.signedData.usrVisibleData, evidence.expected.userVisibleData) &&
      sameBase64(xml.signedData.usrNonVisibleData, evidence.expected.userNonVisibleData);
    return { signatureValid: xml.valid, certificateTrusted: chain.trusted, ocspStatus, signedDataMatches };
  }

  private rootsOf(pem: string): pkijs.Certificate[] {
    let roots = this.parsedRoots.get(pem);
    if (!roots) {
      roots = parsePem(pem);
      if (this.parsedRoots.size >= MAX_PARSED_ROOTS) this.parsedRoots.clear();
      this.parsedRoots.set(pem, roots);
    }
    return roots;
  }
}

/** Far above any configuration's roots; only a bound against a caller passing ever-new PEM text. */
const MAX_PARSED_ROOTS = 64;

// Compared as decoded bytes: base64 line breaks or padding differences do not change what was signed.
function sameBase64(signed: string | undefined, expected: string | undefined): boolean {
  if (signed === undefined || expected === undefined) return signed === expected;
  return Buffer.from(signed.replace(/\s+/g, ''), 'base64').equals(Buffer.from(expected, 'base64'));
}

function parseCertificate(der: Buffer): pkijs.Certificate | undefined {
  try {
    return pkijs.Certificate.fromBER(der);
  } catch {
    return undefined;
  }
}

function parsePem(pem: string): pkijs.Certificate[] {
  try {
    return PemConverter.decode(pem).flatMap((der) => parseCertificate(Buffer.from(der)) ?? []);
  } catch {
    return [];
  }
}
