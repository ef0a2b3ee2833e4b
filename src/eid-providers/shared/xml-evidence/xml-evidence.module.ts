import { Module } from '@nestjs/common';
import { EvidenceVerifier } from './evidence-verifier.js';

/** The checker of XML-signature evidence, for the providers whose evidence has that shape (docs/evidence.md). */
@Module({ providers: [EvidenceVerifier], exports: [EvidenceVerifier] })
export class XmlEvidenceModule {}
