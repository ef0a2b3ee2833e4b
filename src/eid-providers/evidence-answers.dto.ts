import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The service's own check of a provider's evidence, part by part (docs/evidence.md). */
export class EvidenceVerificationDto {
  @ApiProperty({ enum: ['verified', 'failed'], description: '`verified` only when every part below holds.' })
  status: string;

  @ApiProperty({
    description: "The provider's signature verifies (BankID: the XML signature with the certificate it carries; Freja: the details JWS).",
  })
  signatureValid: boolean;

  @ApiProperty({ description: "That certificate chains to the configured roots of the session's provider and environment." })
  certificateTrusted: boolean;

  @ApiPropertyOptional({
    enum: ['good', 'revoked', 'unknown', 'invalid'],
    description:
      'What an authorised OCSP responder said of exactly this certificate; `invalid`: the response could not be relied on. Absent where the provider gives no OCSP response (Freja).',
  })
  ocspStatus?: string;

  @ApiProperty({
    description:
      'BankID: the signed usrVisibleData / usrNonVisibleData equal what the session sent. Freja: the signed details are of this transaction, approved.',
  })
  signedDataMatches: boolean;

  @ApiProperty({ format: 'date-time' })
  checkedAt: string;
}

/**
 * `evidence` in poll answers and webhooks: what each provider keeps (its evidence profile), without
 * the raw signatures (docs/evidence.md). Members of one provider are absent for the others.
 */
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

  @ApiPropertyOptional({ example: 'EXTENDED', description: "Freja: the user's registration level." })
  registrationLevel?: string;

  @ApiPropertyOptional({
    example: '3f0a…',
    description:
      'An age-only session (docs/age-verification.md): SHA-256 (hex) of the evidence, kept in place of it; the result token’s evidenceSha256 where it has one.',
  })
  sha256?: string;

  @ApiPropertyOptional({ type: EvidenceVerificationDto, description: 'Present when the provider gave a signature to check.' })
  verification?: EvidenceVerificationDto;
}

/** GET /api/v1/auth/{sessionId}/evidence: the raw evidence of a complete session (docs/evidence.md). */
export class RawEvidenceDto extends EvidenceDto {
  @ApiProperty({ format: 'uuid' })
  sessionId: string;

  @ApiPropertyOptional({ description: 'BankID: base64 of its XML signature (XML-DSig) of the order.' })
  signature?: string;

  @ApiPropertyOptional({ description: "BankID: base64 of the DER OCSP response about the user's certificate." })
  ocspResponse?: string;

  @ApiPropertyOptional({ description: "Freja: the result's signed details, a compact JWS (RS256) as Freja sent it." })
  details?: string;

  @ApiPropertyOptional({ description: "Freja, sign: the user's signature (signatureData.userSignature) as Freja sent it." })
  userSignature?: string;
}
