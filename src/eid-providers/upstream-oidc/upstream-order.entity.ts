import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';

/** created: the launch link not yet opened; started: sent to the upstream; then complete or failed. */
export type UpstreamOrderStatus = 'created' | 'started' | 'complete' | 'failed';

/**
 * One sign-in at an upstream OpenID provider (docs/upstream-oidc.md): what the callback needs to
 * check the answer, and the answer until the session collects it.
 */
@Entity('upstream_oidc_orders')
export class UpstreamOrder {
  @PrimaryColumn('uuid', { name: 'order_ref' })
  orderRef: string;

  @Column('text')
  upstream: string;

  @Column('text')
  environment: ApiKeyEnvironment;

  @Column('text')
  status: UpstreamOrderStatus;

  @Column('text', { name: 'hint_code', nullable: true })
  hintCode: string | null;

  /** SHA-256 of the pending `state`; cleared when a callback uses it, so it is single-use. */
  @Column('bytea', { name: 'state_hash', nullable: true })
  stateHash: Buffer | null;

  /** The PKCE verifier and the nonce of the pending request, encrypted. */
  @Column('bytea', { name: 'secrets_enc', nullable: true })
  secretsEnc: Buffer | null;

  /** The RP's returnUrl with its return nonce, encrypted. */
  @Column('bytea', { name: 'return_url_enc', nullable: true })
  returnUrlEnc: Buffer | null;

  /** The identity and evidence of a completed sign-in, encrypted, until the session collects it. */
  @Column('bytea', { name: 'completion_enc', nullable: true })
  completionEnc: Buffer | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
