import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { JWK } from 'jose';

export const SIGNING_ALGORITHMS = ['ES256', 'EdDSA'] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

/** A JWT signing key pair, shared by every replica through the database. */
@Entity('signing_keys')
export class SigningKey {
  /** RFC 7638 thumbprint of the public key. */
  @PrimaryColumn('text')
  kid: string;

  @Column('text')
  alg: SigningAlgorithm;

  /** Public members only (`kty`, `crv`, `x`, `y`, `kid`, `alg`, `use`): what the JWKS serves. */
  @Column('jsonb', { name: 'public_jwk' })
  publicJwk: JWK;

  /** The private JWK, AES-256-GCM encrypted with the data key. */
  @Column('bytea', { name: 'private_jwk_enc', select: false })
  privateJwkEnc: Buffer;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  /** When another key took over signing; null for the key that signs now. */
  @Column('timestamptz', { name: 'retired_at', nullable: true })
  retiredAt: Date | null;

  /** A retired key verifies (and is listed) until its last token has expired. */
  @Column('timestamptz', { name: 'verify_until', nullable: true })
  verifyUntil: Date | null;
}
