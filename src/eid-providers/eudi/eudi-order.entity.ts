import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';

/** pending until the wallet's response is checked, then complete or failed. */
export type EudiOrderStatus = 'pending' | 'complete' | 'failed';

/**
 * One presentation request to a wallet (docs/eudi-wallet.md): what the response is checked against,
 * and the outcome until the session collects it. Its id is the request_uri's and the response key's.
 */
@Entity('eudi_orders')
export class EudiOrder {
  @PrimaryColumn('uuid', { name: 'order_ref' })
  orderRef: string;

  @Column('text')
  environment: ApiKeyEnvironment;

  @Column('text')
  status: EudiOrderStatus;

  @Column('text', { name: 'hint_code', nullable: true })
  hintCode: string | null;

  /** SHA-256 of the request's `state`, to find an order by a wallet's plain error response. */
  @Column('bytea', { name: 'state_hash' })
  stateHash: Buffer;

  /** The nonce, the state and the ephemeral response decryption key, encrypted; cleared once answered. */
  @Column('bytea', { name: 'secrets_enc', nullable: true })
  secretsEnc: Buffer | null;

  /** The RP's returnUrl with its return nonce, encrypted. */
  @Column('bytea', { name: 'return_url_enc', nullable: true })
  returnUrlEnc: Buffer | null;

  /** The identity and evidence of an accepted presentation, encrypted, until the session collects it. */
  @Column('bytea', { name: 'completion_enc', nullable: true })
  completionEnc: Buffer | null;

  /** When a wallet fetched the request object: the session shows `started`. */
  @Column('timestamptz', { name: 'request_fetched_at', nullable: true })
  requestFetchedAt: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
