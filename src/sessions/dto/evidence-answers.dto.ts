import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The service's own check of a provider's evidence, part by part (docs/evidence.md). */
export class EvidenceVerificationDto {
  @ApiProperty({ enum: ['verified', 'failed'], description: '`verified` only when every part below holds.' })
  status: string;

  @ApiProperty({ description: 'The XML signature verifies with the certificate it carries and covers the signed data.' })
  signatureValid: boolean;

  @ApiProperty({ description: "That certificate chains to the configured roots of the session's provider and environment." })
  certificateTrusted: boolean;

  @ApiProperty({
    enum: ['good', 'revoked', 'unknown', 'invalid'],
    description: 'What an authorised OCSP responder said of exactly this certificate; `invalid`: the response could not be relied on.',
  })
  ocspStatus: string;

  @ApiProperty({ description: 'The signed usrVisibleData / usrNonVisibleData equal what the session sent.' })
  signedDataMatches: boolean;

  @ApiProperty({ format: 'date-time' })
  checkedAt: string;
}

/** `evidence` in poll answers and webhooks: no raw signature or OCSP response. */
export class EvidenceDto {
  @ApiPropertyOptional({ example: '2024-03-01', description: "When the user's BankID was issued." })
  bankIdIssueDate?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { mrtd: true },
    description: 'BankID step-up checks that were made.',
  })
  stepUp?: Record<string, unknown>;

  @ApiPropertyOptional({ example: 'low', description: "BankID's risk indication of the order." })
  risk?: string;

  @ApiPropertyOptional({ type: EvidenceVerificationDto, description: 'Present when the provider gave a signature to check.' })
  verification?: EvidenceVerificationDto;
}

/** GET /api/v1/auth/{sessionId}/evidence: the raw evidence of a complete session (docs/evidence.md). */
export class RawEvidenceDto extends EvidenceDto {
  @ApiProperty({ format: 'uuid' })
  sessionId: string;

  @ApiPropertyOptional({ description: "Base64 of BankID's XML signature (XML-DSig) of the order." })
  signature?: string;

  @ApiPropertyOptional({ description: "Base64 of the DER OCSP response about the user's certificate." })
  ocspResponse?: string;
}
