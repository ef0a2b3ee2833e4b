import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JwksDto } from '../../tokens/dto/jwks.dto.js';
import { TreeHeadDto } from './transparency-answers.dto.js';

export class BundleInclusionDto {
  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256(0x00 ‖ SHA-256(result token)), hex.' })
  leafHash: string;

  @ApiProperty()
  leafIndex: number;

  @ApiProperty()
  treeSize: number;

  @ApiProperty({ type: [String], description: 'RFC 9162 section 2.1.3 audit path, leaf side first, hex.' })
  inclusionProof: string[];

  @ApiProperty({ type: TreeHeadDto, description: 'The signed tree head the proof is against.' })
  treeHead: TreeHeadDto;
}

export class EvidenceBundleDto {
  @ApiProperty({ enum: ['eidgw-evidence-bundle/1'] })
  format: string;

  @ApiProperty({ format: 'uuid' })
  sessionId: string;

  @ApiProperty({ description: 'The result token (compact JWS, docs/evidence.md).' })
  resultToken: string;

  @ApiProperty({ type: JwksDto, description: 'The public keys of the token, the report and the tree head, retired ones included.' })
  jwks: JwksDto;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      "The provider's raw evidence as kept (BankID: signature, ocspResponse; Freja: details; upstream: idToken); null when none.",
  })
  evidence: Record<string, unknown> | null;

  @ApiProperty({
    description:
      "Compact JWS (`typ` eidgw-evidence-report+jwt) stating the service's check of the evidence, the SHA-256 of the token and of the evidence.",
  })
  verificationReport: string;

  @ApiProperty({ type: BundleInclusionDto })
  transparency: BundleInclusionDto;
}
