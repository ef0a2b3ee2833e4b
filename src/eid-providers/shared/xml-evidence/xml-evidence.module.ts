import { Module } from '@nestjs/common';
import { EvidenceVerifier } from './evidence-verifier.js';
import { IdCardEvidenceVerifier } from './idcard-evidence.profile.js';

/** The checkers of XML-signature evidence, for the providers whose evidence has that shape (docs/evidence.md, docs/idcard.md). */
@Module({ providers: [EvidenceVerifier, IdCardEvidenceVerifier], exports: [EvidenceVerifier, IdCardEvidenceVerifier] })
export class XmlEvidenceModule {}
