import { Injectable, Logger } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../../../api-keys/api-key-format.js';
import { Clock } from '../../../common/clock/clock.js';
import { constantTimeEqual } from '../../../common/crypto/constant-time.js';
import type { EvidenceProfile } from '../../eid-provider.js';
import type { EvidenceVerification } from '../../evidence-verification.js';
import { checkCertificateChain } from './certificate-chain-check.js';
import { EvidenceVerifier, parseCertificate, parsePem } from './evidence-verifier.js';
import { checkXades } from './xades-check.js';

/** The members of an ID card's evidence (docs/idcard.md); all of them raw, shown by the evidence route only. */
const MEMBERS = [
  'verificationId',
  'verifiedAt',
  'identifiedAt',
  'verificationSignature',
  'authenticationSignature',
  'ocspResponse',
] as const;

/** One ID card verification's proof as kept: the two signatures and what they are checked against. */
export type IdCardEvidence = Record<(typeof MEMBERS)[number], string>;

/**
 * Checks both signatures of a digital ID card verification (docs/idcard.md): the provider's XAdES of
 * the verification, its signer chaining to the trust roots at `verifiedAt` and its content naming the
 * verification and the holder; and the holder's own BankID authentication, through the XML signature
 * and OCSP checks of every BankID completion (EvidenceVerifier) at `identifiedAt`. Never throws.
 */
@Injectable()
export class IdCardEvidenceVerifier {
  private readonly logger = new Logger(IdCardEvidenceVerifier.name);

  constructor(
    private readonly authentications: EvidenceVerifier,
    private readonly clock: Clock,
  ) {}

  async verify(
    evidence: IdCardEvidence,
    personalNumber: string | undefined,
    trustRoots: readonly string[],
    logContext: Record<string, string>,
  ): Promise<EvidenceVerification> {
    const checkedAt = this.clock.now().toISOString();
    const verification = await this.verification(evidence, personalNumber, trustRoots);
    const authentication = await this.authentications.verify(
      {
        signature: evidence.authenticationSignature,
        ocspResponse: evidence.ocspResponse,
        expected: 'unbound',
        trustRoots,
        completion: { operation: 'idcard', personalNumber, at: new Date(evidence.identifiedAt) },
      },
      { ...logContext, part: 'authentication' },
    );
    const parts = {
      signatureValid: verification.signatureValid && authentication.signatureValid,
      certificateTrusted: verification.certificateTrusted && authentication.certificateTrusted,
      ocspStatus: authentication.ocspStatus,
      signedDataMatches: verification.signedDataMatches && authentication.signedDataMatches,
    };
    const verified = parts.signatureValid && parts.certificateTrusted && parts.ocspStatus === 'good' && parts.signedDataMatches;
    if (!verification.signatureValid || !verification.certificateTrusted || !verification.signedDataMatches)
      this.logger.warn({ ...logContext, part: 'verification', ...verification }, 'Evidence verification failed');
    return { status: verified ? 'verified' : 'failed', ...parts, checkedAt };
  }

  private async verification(evidence: IdCardEvidence, personalNumber: string | undefined, trustRoots: readonly string[]) {
    const xades = checkXades(evidence.verificationSignature);
    const [signer, ...carried] = xades.certificates.map(parseCertificate);
    const roots = trustRoots.flatMap(parsePem);
    const chain = signer
      ? await checkCertificateChain(
          signer,
          carried.filter((c) => c !== undefined),
          roots,
          new Date(evidence.verifiedAt),
        )
      : { trusted: false };
    const content = xades.signedContent;
    const signedDataMatches =
      content !== undefined &&
      sameText(content.get('verificationId'), evidence.verificationId) &&
      sameText(content.get('personalNumber'), personalNumber);
    return { signatureValid: xades.valid, certificateTrusted: chain.trusted, signedDataMatches };
  }
}

/**
 * What an ID card face keeps of a verification and how it is checked, against the roots `rootsFor`
 * gives for the session's environment (docs/idcard.md). The result token binds the XAdES.
 */
export function idCardEvidenceProfile(
  verifier: IdCardEvidenceVerifier,
  rootsFor: (environment: ApiKeyEnvironment) => readonly string[],
): EvidenceProfile {
  return {
    keep: (provided) =>
      Object.fromEntries(MEMBERS.flatMap((member) => (typeof provided[member] === 'string' ? [[member, provided[member]]] : []))),
    rawMembers: MEMBERS,
    verify: async (kept, session, completion) => {
      if (!MEMBERS.every((member) => typeof kept[member] === 'string')) return undefined;
      return verifier.verify(kept as IdCardEvidence, completion.personalNumber, rootsFor(session.environment), { sessionId: session.id });
    },
    sealed: (kept) => (typeof kept.verificationSignature === 'string' ? kept.verificationSignature : undefined),
  };
}

const sameText = (a: string | undefined, b: string | undefined): boolean => a !== undefined && b !== undefined && constantTimeEqual(a, b);
