import type { KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, importPKCS8, type CryptoKey } from 'jose';
import type { UpstreamConfig } from './upstream-oidc.env.js';

/** A private key as openid-client takes it, with the RFC 7638 thumbprint as its `kid`. */
export interface UpstreamKey {
  key: CryptoKey;
  kid: string;
  alg: string;
}

async function importKey(keyObject: KeyObject, alg: string): Promise<UpstreamKey> {
  const pem = keyObject.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { key: await importPKCS8(pem, alg), kid: await calculateJwkThumbprint(publicOf(keyObject)), alg };
}

// The thumbprint is of the public members only (RFC 7638, section 3.2).
function publicOf(keyObject: KeyObject) {
  const jwk = keyObject.export({ format: 'jwk' });
  return jwk.kty === 'EC' ? { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } : { kty: jwk.kty, n: jwk.n, e: jwk.e };
}

/** The signing key (client assertions, request objects) and the id token decryption key of one upstream. */
export async function upstreamKeys(upstream: UpstreamConfig): Promise<{ signing?: UpstreamKey; decryption?: UpstreamKey }> {
  const ec = (k: KeyObject) => k.asymmetricKeyType === 'ec';
  const signing = upstream.privateKey
    ? await importKey(upstream.privateKey, upstream.signingAlg ?? (ec(upstream.privateKey) ? 'ES256' : 'RS256'))
    : undefined;
  const decryption = upstream.idTokenEncryptionKey
    ? await importKey(upstream.idTokenEncryptionKey, ec(upstream.idTokenEncryptionKey) ? 'ECDH-ES' : 'RSA-OAEP-256')
    : undefined;
  return { signing, decryption };
}
