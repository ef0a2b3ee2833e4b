import { Inject, Injectable } from '@nestjs/common';
import { decodeProtectedHeader, SignJWT } from 'jose';
import { Clock } from '../common/clock/clock.js';
import type { Principal } from '../auth/principal.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { tokensConfig, type TokensConfig } from '../config/tokens.config.js';
import { SessionReader } from '../sessions/api/session-reader.js';
import type { Session } from '../sessions/session.entity.js';
import { SigningKeysService } from '../tokens/signing-keys.service.js';
import {
  BUNDLE_FORMAT,
  evidenceDigest,
  REPORT_TYPE,
  sha256Hex,
  type EvidenceBundle,
  type EvidenceReportClaims,
} from './evidence-bundle.js';
import { resultTokenLeaf } from './result-token-leaf.js';
import { TransparencyLog } from './transparency-log.service.js';

/**
 * A final session's evidence bundle (docs/transparency.md, "Evidence bundles"): everything an RP keeps
 * to prove the outcome offline once the service has purged the session.
 */
@Injectable()
export class EvidenceBundleService {
  constructor(
    private readonly sessions: SessionReader,
    private readonly log: TransparencyLog,
    private readonly signingKeys: SigningKeysService,
    private readonly clock: Clock,
    @Inject(tokensConfig.KEY) private readonly config: TokensConfig,
  ) {}

  async bundleFor(principal: Principal, sessionId: string): Promise<EvidenceBundle> {
    const session = await this.sessions.findForPrincipal(principal, sessionId);
    if (session.status === 'pending') throw new DomainException('session_not_final', 'The session has not ended: it has no result yet.');
    if (session.piiPurgedAt) throw new DomainException('evidence_purged', 'The evidence was erased with the personal data of the session.');
    const { resultToken, evidence: stored } = this.sessions.proofOf(session);
    if (!resultToken) throw new DomainException('evidence_not_found', 'The session has no result token.');
    const { verification, ...evidence } = stored ?? {};
    const members = stored ? evidence : null;

    // A leaf still queued is appended now rather than leaving the bundle without its proof.
    if ((await this.log.leafIndexOf(resultToken)) === null) await this.log.publish(true);
    const inclusion = await this.log.inclusionProof(resultTokenLeaf(resultToken));
    const report = await this.report(session, resultToken, members, verification ?? null);
    const kids = [resultToken, report, ...(inclusion.treeHead ? [inclusion.treeHead.jws] : [])].map(
      (jws) => decodeProtectedHeader(jws).kid,
    );
    return {
      format: BUNDLE_FORMAT,
      sessionId: session.id,
      resultToken,
      jwks: await this.signingKeys.publicKeysOf(kids.filter((kid): kid is string => typeof kid === 'string')),
      evidence: members,
      verificationReport: report,
      transparency: inclusion,
    };
  }

  /** The service's signed statement of its check, bound to the token and the exact evidence. */
  private async report(
    session: Session,
    resultToken: string,
    evidence: Record<string, unknown> | null,
    verification: EvidenceReportClaims['verification'],
  ): Promise<string> {
    const key = await this.signingKeys.activeKey();
    const claims: EvidenceReportClaims = {
      provider: session.provider,
      resultTokenSha256: sha256Hex(resultToken),
      evidenceSha256: evidence ? evidenceDigest(evidence) : null,
      verification,
    };
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: REPORT_TYPE })
      .setIssuer(this.config.issuer)
      .setSubject(session.id)
      .setAudience(session.teamId)
      .setIssuedAt(Math.floor(this.clock.nowMs() / 1000))
      .sign(key.privateKey);
  }
}
