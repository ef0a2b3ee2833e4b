// @peculiar/x509 needs the Reflect metadata polyfill loaded before it.
import 'reflect-metadata';
import { timingSafeEqual } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { PemConverter } from '@peculiar/x509';
import * as pkijs from 'pkijs';
import { Clock } from '../../../common/clock/clock.js';
import { checkCertificateChain } from './certificate-chain-check.js';
import type { EvidenceVerification, OcspStatus } from '../../evidence-verification.js';
import { checkOcspResponse } from './ocsp-response-check.js';
import { personalNumberOf } from './signer-certificate-check.js';
import type { EidOperation } from '../../eid-provider.js';
import type { BankIdFunction } from './bankid-signature-xml.js';
import { checkXmlSignature } from './xml-signature-check.js';

type Parts = Omit<EvidenceVerification, 'status' | 'checkedAt'>;

/** An XML-signature completion to verify (docs/evidence.md). */
export interface EvidenceToVerify {
  /** completionData.signature: base64 of the XML signature. */
  signature: string;
  /** completionData.ocspResponse: base64 of the DER OCSP response. */
  ocspResponse: string;
  /**
   * What the session sent to the order, base64 as sent (absent members: it sent none); `unbound`: the
   * RP sent no order, so its texts are not held to anything (an ID card holder's own login, docs/idcard.md).
   */
  expected: { userVisibleData?: string; userNonVisibleData?: string } | 'unbound';
  /** PEM certificates the user's certificate must chain to. */
  trustRoots: readonly string[];
  /** What the completion reports, which the evidence must be of (docs/evidence.md). */
  completion: {
    /** `auth` expects funcId Identification, `sign` and `payment` Signing. */
    operation: EidOperation;
    /** user.personalNumber of the completion: the signer certificate's must be the same. */
    personalNumber?: string;
    /** When the session completed: the signer certificate must be valid then, the OCSP response fresh. */
    at: Date;
  };
}

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
    let checked: { parts: Parts; mismatches: string[] };
    try {
      checked = await this.checkParts(evidence);
    } catch {
      checked = {
        parts: { signatureValid: false, certificateTrusted: false, ocspStatus: 'invalid', signedDataMatches: false },
        mismatches: [],
      };
    }
    const { parts, mismatches } = checked;
    const verified = parts.signatureValid && parts.certificateTrusted && parts.ocspStatus === 'good' && parts.signedDataMatches;
    // `mismatches` names which of the signed data's bindings failed, never their values.
    if (!verified)
      this.logger.warn({ ...logContext, ...parts, ...(mismatches.length ? { mismatches } : {}) }, 'Evidence verification failed');
    return { status: verified ? 'verified' : 'failed', ...parts, checkedAt: now.toISOString() };
  }

  private async checkParts(evidence: EvidenceToVerify): Promise<{ parts: Parts; mismatches: string[] }> {
    const { completion } = evidence;
    const xml = checkXmlSignature(evidence.signature);
    const [signer, ...carried] = xml.certificates.map(parseCertificate);
    const roots = evidence.trustRoots.flatMap((pem) => this.rootsOf(pem));
    // The signer's certificate must have been valid when the user signed, i.e. at the completion.
    const chain = signer
      ? await checkCertificateChain(
          signer,
          carried.filter((c) => c !== undefined),
          roots,
          completion.at,
        )
      : { trusted: false };
    let ocspStatus: OcspStatus = 'invalid';
    if (signer && chain.issuer)
      ocspStatus = await checkOcspResponse(Buffer.from(evidence.ocspResponse, 'base64'), signer, chain.issuer, completion.at);
    // Bound to this session and this completion: the texts it sent, its operation, the user it reports.
    const data = xml.signedData;
    const { expected } = evidence;
    const mismatches = [
      ...(data && (expected === 'unbound' || sameBase64(data.usrVisibleData, expected.userVisibleData)) ? [] : ['usrVisibleData']),
      ...(data && (expected === 'unbound' || sameBase64(data.usrNonVisibleData, expected.userNonVisibleData)) ? [] : ['usrNonVisibleData']),
      ...(data?.funcId === FUNC_ID[completion.operation] ? [] : ['funcId']),
      ...(signer && sameText(personalNumberOf(signer), completion.personalNumber) ? [] : ['personalNumber']),
    ];
    const signedDataMatches = data !== undefined && mismatches.length === 0;
    return { parts: { signatureValid: xml.valid, certificateTrusted: chain.trusted, ocspStatus, signedDataMatches }, mismatches };
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

/**
 * The funcId BankID's app signs for each operation (docs/evidence.md): a payment is approved as a
 * signature is; an ID card's holder identified to open the card (docs/idcard.md).
 */
const FUNC_ID: Record<EvidenceToVerify['completion']['operation'], BankIdFunction> = {
  auth: 'Identification',
  sign: 'Signing',
  payment: 'Signing',
  idcard: 'Identification',
};

// Both present and equal; compared in constant time like every other identity comparison.
function sameText(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Far above any configuration's roots; only a bound against a caller passing ever-new PEM text. */
const MAX_PARSED_ROOTS = 64;

// Compared as decoded bytes: base64 line breaks or padding differences do not change what was signed.
function sameBase64(signed: string | undefined, expected: string | undefined): boolean {
  if (signed === undefined || expected === undefined) return signed === expected;
  return Buffer.from(signed.replace(/\s+/g, ''), 'base64').equals(Buffer.from(expected, 'base64'));
}

export function parseCertificate(der: Buffer): pkijs.Certificate | undefined {
  try {
    return pkijs.Certificate.fromBER(der);
  } catch {
    return undefined;
  }
}

export function parsePem(pem: string): pkijs.Certificate[] {
  try {
    return PemConverter.decode(pem).flatMap((der) => parseCertificate(Buffer.from(der)) ?? []);
  } catch {
    return [];
  }
}
