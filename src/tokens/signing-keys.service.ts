import { Inject, Injectable } from '@nestjs/common';
import { createLocalJWKSet, errors, importJWK, type CryptoKey, type JSONWebKeySet, type JWK, type JWTVerifyGetKey } from 'jose';
import { Clock } from '../common/clock/clock.js';
import { DataCipher } from '../common/crypto/data-cipher.js';
import { tokensConfig, type TokensConfig } from '../config/tokens.config.js';
import { generateSigningKey, type SigningKeyMaterial } from './signing-key-material.js';
import type { SigningKey, SigningAlgorithm } from './signing-key.entity.js';
import { SigningKeyStore } from './signing-key.store.js';

// ES256: the widest verifier support among the algorithms OWASP recommends (EdDSA is still missing
// from some JWT libraries); the table allows EdDSA for a later rotation.
export const SIGNING_ALGORITHM: SigningAlgorithm = 'ES256';

// A replica re-reads the public keys this often; a token naming a key it has not seen yet (one another
// replica or the CLI just created) makes it re-read at once.
const VERIFICATION_KEYS_MAX_AGE_MS = 60_000;

const privateKeyAad = (kid: string) => `signing_keys:${kid}:private_jwk`;

export interface ActiveSigningKey {
  kid: string;
  alg: SigningAlgorithm;
  privateKey: CryptoKey;
}

export interface RotationResult {
  kid: string;
  alg: SigningAlgorithm;
  retired: { kid: string; verifyUntil: Date } | null;
}

/**
 * The JWT signing keys. They live in the database (private halves encrypted with the data key), so
 * every replica signs with the same key and verifies every other replica's tokens.
 */
@Injectable()
export class SigningKeysService {
  // A kid names immutable key material, so imported keys can be kept for the life of the process.
  private readonly privateKeys = new Map<string, Promise<CryptoKey>>();
  private verification: { keys: ReturnType<typeof createLocalJWKSet>; loadedAt: number } | null = null;

  constructor(
    private readonly signingKeys: SigningKeyStore,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    @Inject(tokensConfig.KEY) private readonly config: TokensConfig,
  ) {}

  /** The key that signs now; the first call on an empty database creates it. */
  async activeKey(): Promise<ActiveSigningKey> {
    const row = (await this.signingKeys.findActive()) ?? (await this.createFirstKey());
    let privateKey = this.privateKeys.get(row.kid);
    if (!privateKey) {
      privateKey = this.loadPrivateKey(row.kid, row.alg);
      this.privateKeys.set(row.kid, privateKey);
      privateKey.catch(() => this.privateKeys.delete(row.kid));
    }
    return { kid: row.kid, alg: row.alg, privateKey: await privateKey };
  }

  /** The signing key's private JWK, for a library that takes keys as JWKs (the OpenID Provider, docs/oidc.md). */
  async activePrivateJwk(): Promise<JWK> {
    const row = (await this.signingKeys.findActive()) ?? (await this.createFirstKey());
    return this.cipher.decryptJson<JWK>(await this.signingKeys.privateJwkEnc(row.kid), privateKeyAad(row.kid));
  }

  /**
   * Makes a new key the signer. The old one stays published and valid until every token it signed
   * has expired: its verify_until is now + token lifetime + clock skew.
   */
  async rotate(): Promise<RotationResult> {
    const material = await generateSigningKey(SIGNING_ALGORITHM);
    const now = this.clock.now();
    const verifyUntil = new Date(now.getTime() + this.config.ttlMs + this.config.clockSkewMs);
    const current = await this.signingKeys.replaceActive(this.toRow(material, now), now, verifyUntil);
    return { kid: material.kid, alg: material.alg, retired: current ? { kid: current.kid, verifyUntil } : null };
  }

  /** The JWKS document: the signing key and every retired key whose tokens may still be alive. */
  async publicKeySet(): Promise<JSONWebKeySet> {
    let keys = await this.verifiableKeys();
    if (keys.length === 0) {
      await this.createFirstKey();
      keys = await this.verifiableKeys();
    }
    return { keys: keys.map((key) => key.publicJwk) };
  }

  /** The public keys of these kids as a JWKS, retired or not: for documents that outlive a key's rotation (an evidence bundle). */
  async publicKeysOf(kids: string[]): Promise<JSONWebKeySet> {
    const keys = await this.signingKeys.findByKids([...new Set(kids)]);
    return { keys: keys.map((key) => key.publicJwk) };
  }

  /** A key resolver for jose's jwtVerify over the published keys, cached and refreshed on an unknown kid. */
  readonly verificationKey: JWTVerifyGetKey = async (header, token) => {
    if (typeof header.kid !== 'string') throw new errors.JWKSNoMatchingKey('The token names no key (kid)');
    const now = this.clock.nowMs();
    if (!this.verification || now - this.verification.loadedAt > VERIFICATION_KEYS_MAX_AGE_MS) await this.reloadVerificationKeys();
    try {
      return await this.verification!.keys(header, token);
    } catch (error) {
      // A made-up kid costs one primary-key lookup, no reload.
      if (!(error instanceof errors.JWKSNoMatchingKey) || !(await this.signingKeys.exists(header.kid))) throw error;
      await this.reloadVerificationKeys();
      return this.verification!.keys(header, token);
    }
  };

  private async reloadVerificationKeys(): Promise<void> {
    const keys = (await this.verifiableKeys()).map((key) => key.publicJwk);
    this.verification = { keys: createLocalJWKSet({ keys }), loadedAt: this.clock.nowMs() };
  }

  private verifiableKeys(): Promise<SigningKey[]> {
    return this.signingKeys.findVerifiable(this.clock.now());
  }

  /** Replicas starting together may race here; the unique index of the active key lets exactly one win. */
  private async createFirstKey(): Promise<SigningKey> {
    const material = await generateSigningKey(SIGNING_ALGORITHM);
    await this.signingKeys.insertUnlessActive(this.toRow(material, this.clock.now()));
    const active = await this.signingKeys.findActive();
    if (!active) throw new Error('No active signing key after creating one');
    return active;
  }

  private toRow(material: SigningKeyMaterial, createdAt: Date): SigningKey {
    return {
      kid: material.kid,
      alg: material.alg,
      publicJwk: material.publicJwk,
      privateJwkEnc: this.cipher.encryptJson(material.privateJwk, privateKeyAad(material.kid)),
      createdAt,
      retiredAt: null,
      verifyUntil: null,
    };
  }

  private async loadPrivateKey(kid: string, alg: SigningAlgorithm): Promise<CryptoKey> {
    const privateJwkEnc = await this.signingKeys.privateJwkEnc(kid);
    return (await importJWK(this.cipher.decryptJson<JWK>(privateJwkEnc, privateKeyAad(kid)), alg)) as CryptoKey;
  }
}
