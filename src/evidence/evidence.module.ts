import { Module } from '@nestjs/common';
import { TokensModule } from '../tokens/tokens.module.js';
import { EvidenceTrustRoots } from './evidence-trust-roots.js';
import { EvidenceVerifier } from './evidence-verifier.js';
import { EvidenceService } from './evidence.service.js';
import { ResultTokenSigner } from './result-token-signer.js';
import { simulatorEvidenceProvider, SimulatorEvidence } from './simulator-evidence.provider.js';

/** Provider evidence: checking it, the simulator's signing of it, and the signed result token (docs/evidence.md). */
@Module({
  imports: [TokensModule],
  providers: [EvidenceService, EvidenceVerifier, EvidenceTrustRoots, ResultTokenSigner, simulatorEvidenceProvider],
  exports: [EvidenceService, EvidenceVerifier, EvidenceTrustRoots, ResultTokenSigner, SimulatorEvidence],
})
export class EvidenceModule {}
