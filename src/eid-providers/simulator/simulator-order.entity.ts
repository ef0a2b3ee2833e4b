import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { EidChannel, EidOperation } from '../eid-provider.js';

/** approve and cancel in the app after a scan; approve and decline on the phone channel. */
export type SimulatorAction = 'approve' | 'cancel' | 'decline';

/** The simulator's own order book, kept apart from sessions exactly as BankID's is. */
@Entity('simulator_orders')
export class SimulatorOrder {
  @PrimaryColumn('uuid', { name: 'order_ref' })
  orderRef: string;

  @Column('text')
  operation: EidOperation;

  @Column('text')
  channel: EidChannel;

  /** app channel: the QR, the autostart token and the device address; a phone order has none of them. */
  @Column('text', { name: 'end_user_ip', nullable: true })
  endUserIp: string | null;

  @Column('uuid', { name: 'qr_start_token', nullable: true })
  qrStartToken: string | null;

  @Column('bytea', { name: 'qr_start_secret_enc', nullable: true })
  qrStartSecretEnc: Buffer | null;

  @Column('bytea', { name: 'auto_start_token_hash', nullable: true })
  autoStartTokenHash: Buffer | null;

  /** phone channel: a keyed hash of the person called, to find their order without storing the number. */
  @Column('bytea', { name: 'personal_number_hash', nullable: true })
  personalNumberHash: Buffer | null;

  /** The text the app shows (sign always, auth when given), encrypted. */
  @Column('bytea', { name: 'user_visible_data_enc', nullable: true })
  userVisibleDataEnc: Buffer | null;

  /** payment: the transaction the app shows, encrypted (docs/api.md, "Payment"). */
  @Column('bytea', { name: 'transaction_enc', nullable: true })
  transactionEnc: Buffer | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  /** Insertion order, numbered by the database: tells apart orders that share created_at (docs/api.md). */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS', insert: false, update: false })
  seq: string;

  /** When the end user's app picked the order up (QR scan, autostart, or the phone call answered). */
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

/** An order as the simulator starts it; the database numbers it. */
export type NewSimulatorOrder = Omit<SimulatorOrder, 'seq'>;
