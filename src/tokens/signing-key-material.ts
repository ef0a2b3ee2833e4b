import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { SigningAlgorithm } from './signing-key.entity.js';

export interface SigningKeyMaterial {
  kid: string;
  alg: SigningAlgorithm;
  publicJwk: JWK;
  privateJwk: JWK;
}

/** A fresh key pair; `kid` is the RFC 7638 thumbprint, so it names the key without a registry. */
export async function generateSigningKey(alg: SigningAlgorithm): Promise<SigningKeyMaterial> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const publicMembers = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicMembers);
  return {
    kid,
    alg,
    publicJwk: { ...publicMembers, kid, alg, use: 'sig' },
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg },
  };
}
