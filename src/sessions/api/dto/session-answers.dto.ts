import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EvidenceDto } from '../../../eid-providers/evidence-answers.dto.js';
import { PROVIDER_API_DOCS } from '../../../eid-providers/provider-api-docs.js';
import { AGE_THRESHOLDS } from '../../session-age.js';

const SESSION_ID = { format: 'uuid', example: '5f7c1a2e-3b4d-4e6f-8a9b-0c1d2e3f4a5b' };
const ENVIRONMENT = { enum: ['test', 'live'], description: "The API key's environment, which chose the provider's environment." };
const OPERATION = {
  enum: ['auth', 'sign', 'payment'],
  description: '`auth` identifies the end user, `sign` has them sign a text, `payment` has them approve a transaction.',
};
const CHANNEL = { enum: ['app', 'phone'], description: "`app`: QR or autostart on a device; `phone`: the RP's call centre." };

export class StartSessionAnswerDto {
  @ApiProperty(SESSION_ID)
  sessionId: string;

  @ApiProperty({ example: 'simulator' })
  provider: string;

  @ApiPropertyOptional(ENVIRONMENT)
  environment?: string;

  @ApiPropertyOptional(OPERATION)
  operation?: string;

  @ApiPropertyOptional(CHANNEL)
  channel?: string;

  @ApiProperty({ enum: ['pending'] })
  status: string;

  @ApiPropertyOptional({ enum: AGE_THRESHOLDS, description: 'An age-only session (docs/age-verification.md): the age it checks.' })
  ageOver?: number;

  @ApiPropertyOptional({ description: 'For the animated QR (or use `GET …/qr`).', example: '67df3917-fa0d-44e5-b327-edcc928297f8' })
  qrStartToken?: string;

  @ApiPropertyOptional({
    description: 'Keep it in your backend: never send it to a browser.',
    example: 'd28db9a7-4cde-429e-a983-359be676944c',
  })
  qrStartSecret?: string;

  @ApiPropertyOptional({
    description:
      "A provider with a static QR (Freja eID, an upstream OpenID provider): the QR's content, the same as `GET …/qr` serves. Animated QRs have `qrStartToken` instead.",
    example: 'frejaeid://bindUserToTransaction?transactionReference=eyJ0cmFuc1JlZiI6IjEyMyJ9',
  })
  qrData?: string;

  @ApiPropertyOptional({ description: 'Opens the e-ID app on the same device.', example: '7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6' })
  autoStartToken?: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T10:03:00.000Z' })
  expiresAt: string;

  @ApiPropertyOptional({ format: 'uri', description: 'A page that shows the rotating QR; open it on a screen the user scans.' })
  kioskUrl?: string;

  @ApiPropertyOptional({
    format: 'uri',
    description: PROVIDER_API_DOCS.launchUrl.description,
    example: PROVIDER_API_DOCS.launchUrl.example,
  })
  launchUrl?: string;
}

export class IdentifiedUserDto {
  @ApiPropertyOptional({ example: '198507099805', description: PROVIDER_API_DOCS.personalNumber })
  personalNumber?: string;

  @ApiPropertyOptional({
    example: '01017012345',
    description:
      "Another country's national identifier (Norwegian fødselsnummer, Danish CPR, Finnish HETU), from an upstream OpenID provider.",
  })
  nationalId?: string;

  @ApiProperty({ example: 'Anna Andersson' })
  name: string;

  @ApiProperty({ example: 'Anna' })
  givenName: string;

  @ApiProperty({ example: 'Andersson' })
  surname: string;

  @ApiPropertyOptional({ example: '1970-01-01', description: 'ISO 8601 date, where the provider gives it.' })
  birthdate?: string;

  @ApiPropertyOptional({ example: 'NO', description: 'ISO 3166-1 alpha-2 country of nationalId (upstream OpenID providers).' })
  country?: string;

  @ApiPropertyOptional({
    example: 36,
    description: "A digital ID card's holder: age in whole years, as the provider states it (docs/idcard.md).",
  })
  age?: number;
}

/** A digital ID card's verification by the provider (docs/idcard.md). */
export class IdCardVerificationDto {
  @ApiProperty({ example: '6f1c9a4e-2b7d-4e39-9a1f-0c5d3e8b7a21' })
  verificationId: string;

  @ApiProperty({ format: 'date-time' })
  verifiedAt: string;
}

/** The holder's own authentication that opened the card (docs/idcard.md). */
export class IdCardAuthenticationDto {
  @ApiProperty({ format: 'date-time' })
  identifiedAt: string;

  @ApiProperty({ example: '131daac9-16c6-4618-beb0-365768f37288' })
  orderRef: string;
}

export class DeviceDto {
  @ApiPropertyOptional({ example: '192.0.2.10', description: 'The IP address the e-ID app used.' })
  ipAddress?: string;
}

/** An age-only session's answer, in place of user and device (docs/age-verification.md). */
export class AgeVerificationDto {
  @ApiProperty({ enum: AGE_THRESHOLDS, example: 18 })
  ageOver: number;

  @ApiProperty({
    type: 'boolean',
    nullable: true,
    example: true,
    description: 'Whether the person is ageOver or older on the completion date in Europe/Stockholm; null: unknown (see reason).',
  })
  result: boolean | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'SE', description: "ISO 3166-1 alpha-2 of the e-ID's country." })
  country: string | null;

  @ApiProperty({
    enum: ['idcard', 'eudi-age-attestation', 'upstream-birthdate', 'personal-number'],
    description: 'Where the age came from.',
  })
  source: string;

  @ApiPropertyOptional({ enum: ['age_unknown'], description: 'Why result is null: a coordination number, or no birth date.' })
  reason?: string;
}

/** The poll and cancel answer, and the `data` of webhook events (docs/api.md, docs/webhooks.md). */
export class UserMessageDto {
  @ApiProperty({
    example: 'RFA1',
    description: PROVIDER_API_DOCS.userMessage.code,
  })
  code: string;

  @ApiProperty({ example: PROVIDER_API_DOCS.userMessage.sv })
  sv: string;

  @ApiProperty({ example: PROVIDER_API_DOCS.userMessage.en })
  en: string;
}

export class SessionStateDto {
  @ApiProperty(SESSION_ID)
  sessionId: string;

  @ApiProperty({ example: 'simulator' })
  provider: string;

  @ApiPropertyOptional(ENVIRONMENT)
  environment?: string;

  @ApiPropertyOptional(OPERATION)
  operation?: string;

  @ApiPropertyOptional(CHANNEL)
  channel?: string;

  @ApiProperty({ enum: ['pending', 'complete', 'failed'] })
  status: string;

  @ApiPropertyOptional({
    example: 'outstandingTransaction',
    description:
      'Pending: `outstandingTransaction`, `noClient`, `started`, `userMrtd`, `userCallConfirm`, `userSign`. Failed: `expiredTransaction`, `certificateErr`, `userCancel`, `cancelled`, `startFailed`, … (unknown codes pass through).',
  })
  hintCode?: string;

  @ApiPropertyOptional({ type: UserMessageDto, description: PROVIDER_API_DOCS.userMessage.description })
  userMessage?: UserMessageDto;

  @ApiPropertyOptional({ type: IdentifiedUserDto, description: 'Once complete, until personal data is purged.' })
  user?: IdentifiedUserDto;

  @ApiPropertyOptional({ type: DeviceDto, description: 'Once complete, until personal data is purged.' })
  device?: DeviceDto;

  @ApiPropertyOptional({
    type: AgeVerificationDto,
    description: 'An age-only session, once complete: the age answer in place of user and device (docs/age-verification.md).',
  })
  ageVerification?: AgeVerificationDto;

  @ApiPropertyOptional({ type: IdCardVerificationDto, description: 'An ID card session (docs/idcard.md), until personal data is purged.' })
  verification?: IdCardVerificationDto;

  @ApiPropertyOptional({
    type: IdCardAuthenticationDto,
    description: 'An ID card session (docs/idcard.md), until personal data is purged.',
  })
  authentication?: IdCardAuthenticationDto;

  @ApiPropertyOptional({ format: 'date-time' })
  completedAt?: string;

  @ApiPropertyOptional({
    type: EvidenceDto,
    description: "A complete session's evidence and the service's verification of it (docs/evidence.md), until personal data is purged.",
  })
  evidence?: EvidenceDto;

  @ApiPropertyOptional({
    description:
      'Once final, until personal data is purged: the outcome as a compact JWS (ES256, `typ: eidgw-result+jwt`) that verifies against `/.well-known/jwks.json`.',
    example: 'eyJhbGciOiJFUzI1NiIsImtpZCI6Ii4uLiIsInR5cCI6ImVpZGd3LXJlc3VsdCtqd3QifQ.eyJzdWIiOiIuLi4ifQ.c2ln',
  })
  resultToken?: string;
}

export class QrFrameDto {
  @ApiProperty(SESSION_ID)
  sessionId: string;

  @ApiProperty({
    example: PROVIDER_API_DOCS.qrData,
  })
  qrData: string;

  @ApiPropertyOptional({ example: 1, description: PROVIDER_API_DOCS.qrTime })
  qrTime?: number;

  @ApiProperty({ enum: ['pending'] })
  status: string;
}

/** A row of the sessions listing: status and times, never personal data or metadata (docs/listings.md). */
export class SessionRowDto {
  @ApiProperty(SESSION_ID)
  sessionId: string;

  @ApiProperty({ example: 'simulator' })
  provider: string;

  @ApiProperty(ENVIRONMENT)
  environment: string;

  @ApiProperty(OPERATION)
  operation: string;

  @ApiProperty(CHANNEL)
  channel: string;

  @ApiProperty({ enum: ['pending', 'complete', 'failed'] })
  status: string;

  @ApiPropertyOptional()
  hintCode?: string;

  @ApiProperty({ format: 'uuid' })
  apiKeyId: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;

  @ApiPropertyOptional({ format: 'date-time' })
  completedAt?: string;

  @ApiPropertyOptional({ description: 'Milliseconds from start to end; absent while pending.' })
  durationMs?: number;
}

export class SessionListingDto {
  @ApiProperty({ enum: [true] })
  success: boolean;

  @ApiProperty({ type: [SessionRowDto] })
  rows: SessionRowDto[];

  @ApiProperty({ description: '-1 while more rows exist; otherwise the total row count.', example: -1 })
  lastrow: number;
}
