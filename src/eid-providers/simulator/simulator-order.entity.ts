import { Column, Entity, PrimaryColumn } from 'typeorm';

export type SimulatorAction = 'approve' | 'cancel';

/** The simulator's own order book, kept apart from sessions exactly as BankID's is. */
@Entity('simulator_orders')
export class SimulatorOrder {
  @PrimaryColumn('uuid', { name: 'order_ref' })
  orderRef: string;

  @Column('text', { name: 'end_user_ip' })
  endUserIp: string;

  @Column('uuid', { name: 'qr_start_token' })
  qrStartToken: string;

  @Column('bytea', { name: 'qr_start_secret_enc' })
  qrStartSecretEnc: Buffer;

  @Column('bytea', { name: 'auto_start_token_hash' })
  autoStartTokenHash: Buffer;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  /** When the end user's app picked the order up (QR scan or autostart). */
  @Column('timestamptz', { name: 'scanned_at', nullable: true })
  scannedAt: Date | null;

  @Column('text', { nullable: true })
  action: SimulatorAction | null;

  /** The identity the app will report, encrypted (simulated, but shaped like real personal data). */
  @Column('bytea', { name: 'user_enc', nullable: true })
  userEnc: Buffer | null;

  /** The texts of the order, base64 as BankID signs them ({userVisibleData?, userNonVisibleData?}), encrypted. */
  @Column('bytea', { name: 'signed_texts_enc', nullable: true })
  signedTextsEnc: Buffer | null;

  /** The signature and OCSP response issued once on approval (docs/evidence.md), encrypted. */
  @Column('bytea', { name: 'evidence_enc', nullable: true })
  evidenceEnc: Buffer | null;

  @Column('timestamptz', { name: 'cancelled_at', nullable: true })
  cancelledAt: Date | null;

  /** Where the simulated app page sends the person when they are done (the RP's returnUrl, nonce included). */
  @Column('text', { name: 'return_url', nullable: true })
  returnUrl: string | null;
}
