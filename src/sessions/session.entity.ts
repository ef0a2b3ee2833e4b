import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import type { EidChannel, EidOperation, RiskLevel } from '../eid-providers/eid-provider.js';
import type { AgeThreshold } from './session-age.js';
import type { SessionStatus } from './session-state.js';

@Entity('sessions')
export class Session {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'team_id' })
  teamId: string;

  @Column('uuid', { name: 'api_key_id', nullable: true })
  apiKeyId: string | null;

  @Column('text')
  environment: ApiKeyEnvironment;

  @Column('text')
  provider: string;

  /** auth, sign or payment (docs/api.md, "Signing and the phone channel", "Payment"). */
  @Column('text')
  operation: EidOperation;

  /** app (QR, autostart) or phone (no QR). */
  @Column('text')
  channel: EidChannel;

  /** The provider's reference to its order (docs/providers.md). */
  @Column('text', { name: 'order_ref' })
  orderRef: string;

  @Column('text')
  status: SessionStatus;

  @Column('text', { name: 'hint_code', nullable: true })
  hintCode: string | null;

  @Column('uuid', { name: 'qr_start_token', nullable: true })
  qrStartToken: string | null;

  @Column('bytea', { name: 'qr_start_secret_enc', nullable: true })
  qrStartSecretEnc: Buffer | null;

  /** The QR clock starts here (docs/api.md). */
  @Column('timestamptz', { name: 'order_time' })
  orderTime: Date;

  @Column('text', { name: 'end_user_ip', nullable: true })
  endUserIp: string | null;

  /** The RP's own flat key/values, echoed in webhooks; erased with the personal data. */
  @Column('jsonb', { nullable: true })
  metadata: Record<string, string | number | boolean | null> | null;

  /** The identity from the provider (personal number, names, device), encrypted. */
  @Column('bytea', { name: 'completion_enc', nullable: true })
  completionEnc: Buffer | null;

  /** What the session sent to be signed, base64 ({userVisibleData?, userNonVisibleData?}), encrypted: the evidence is checked against it. */
  @Column('bytea', { name: 'signed_texts_enc', nullable: true })
  signedTextsEnc: Buffer | null;

  /** The provider's evidence and the service's verification of it (docs/evidence.md), encrypted. */
  @Column('bytea', { name: 'evidence_enc', nullable: true })
  evidenceEnc: Buffer | null;

  /** The signed result of a final session (docs/evidence.md), encrypted: it names the user. */
  @Column('bytea', { name: 'result_token_enc', nullable: true })
  resultTokenEnc: Buffer | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;

  @Column('timestamptz', { name: 'last_collected_at' })
  lastCollectedAt: Date;

  @Column('timestamptz', { name: 'pii_purged_at', nullable: true })
  piiPurgedAt: Date | null;

  /** SHA-256 of the return nonce given to the provider inside returnUrl (docs/same-device.md). */
  @Column('bytea', { name: 'return_nonce_hash', nullable: true })
  returnNonceHash: Buffer | null;

  @Column('smallint', { name: 'return_nonce_failures', default: 0 })
  returnNonceFailures: number;

  /** When the RP's return call was accepted: only once. */
  @Column('timestamptz', { name: 'returned_at', nullable: true })
  returnedAt: Date | null;

  /** The current order's same-device link, encrypted (an autostart token is a bearer capability). */
  @Column('bytea', { name: 'launch_url_enc', nullable: true })
  launchUrlEnc: Buffer | null;

  @Column('boolean', { name: 'auto_renew', default: false })
  autoRenew: boolean;

  /** With autoRenew: the order request, encrypted, so a new order can be started like the first. */
  @Column('bytea', { name: 'renewal_request_enc', nullable: true })
  renewalRequestEnc: Buffer | null;

  /** How many times the order was replaced after startFailed. */
  @Column('integer', { default: 0 })
  renewals: number;

  /** The starting key's maxRisk as it was at start: a completion judged riskier fails riskTooHigh (docs/api.md, "Risk"). */
  @Column('text', { name: 'max_risk', nullable: true })
  maxRisk: Exclude<RiskLevel, 'high'> | null;

  /** An age-only session's age (docs/age-verification.md): it keeps and answers the age answer alone. */
  @Column('smallint', { name: 'age_over', nullable: true })
  ageOver: AgeThreshold | null;
}
