import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import * as pkijs from 'pkijs';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import type { EudiConfig } from './eudi.config.js';
import { generateTestAuthority, type TestAuthority } from './test-authorities.js';
import { readOrWriteOnce } from './write-once.js';

/** Who the verifier is to a wallet (OpenID4VP 1.0, 5.9.3): the access certificate chain, its key and the client_id it names. */
export interface VerifierIdentity {
  /** `x509_san_dns:<host>`: the host is a DNS name of the access certificate. */
  clientId: string;
  /** The chain as the request object's `x5c` carries it: base64 DER, the access certificate first. */
  x5c: string[];
  signingKey: KeyObject;
  /** The access certificate's subject CN, for the wallet to show. */
  displayName: string;
  /** The access certificate itself, whose expiry readiness reports. */
  certificate: X509Certificate;
}

/** The wallet verifier's EudiTrust; null where PROVIDERS leaves the wallet out. */
export const EUDI_TRUST = Symbol('EUDI_TRUST');

/** The verifier's identity and the issuers it trusts, per environment (docs/eudi-wallet.md, "Configuration"). */
export class EudiTrust {
  constructor(
    readonly identity: VerifierIdentity,
    private readonly anchors: Record<ApiKeyEnvironment, pkijs.Certificate[]>,
    /** The simulator wallet's PID issuer, where the simulator is enabled; trusted for test keys only. */
    readonly testIssuer: TestAuthority | null,
  ) {}

  anchorsFor(environment: ApiKeyEnvironment): pkijs.Certificate[] {
    return this.anchors[environment];
  }
}

const commonNameOf = (certificate: X509Certificate) =>
  certificate.subject
    .split('\n')
    .find((part) => part.startsWith('CN='))
    ?.slice(3) ?? certificate.subject;

/** The configured access certificate, or outside production a generated one kept in DATA_DIR. */
async function loadIdentity(config: EudiConfig, host: string, dataDir: string, production: boolean, now: Date): Promise<VerifierIdentity> {
  let pems = config.verifierCertificates;
  let key = config.verifierKey;
  if (pems.length === 0 || !key) {
    if (production) throw new Error('EUDI_VERIFIER_CERT and EUDI_VERIFIER_KEY are required when NODE_ENV=production');
    const generated = await readOrWriteOnce(join(dataDir, `eudi-test-verifier-${host.replace(/[^a-z0-9.-]/gi, '_')}.json`), () =>
      generateTestAuthority('eid-gateway test verifier', now, host),
    );
    pems = [generated.leaf.certificatePem, generated.ca.certificatePem];
    key = createPrivateKey(generated.leaf.privateKeyPem);
  }
  const certificates = pems.map((pem) => new X509Certificate(pem));
  const [leaf] = certificates;
  // A wallet checks the client_id's host against the certificate: a mismatch would fail every request.
  if (!leaf.checkHost(host, { subject: 'never' })) throw new Error(`EUDI_VERIFIER_CERT: the first certificate's SAN does not name ${host}`);
  if (!leaf.checkPrivateKey(key)) throw new Error('EUDI_VERIFIER_KEY: is not the key of the first certificate of EUDI_VERIFIER_CERT');
  return {
    clientId: `x509_san_dns:${host}`,
    x5c: certificates.map((c) => c.raw.toString('base64')),
    signingKey: key,
    displayName: commonNameOf(leaf),
    certificate: leaf,
  };
}

const toPkijs = (pem: string) => pkijs.Certificate.fromBER(new X509Certificate(pem).raw);

export async function loadEudiTrust(
  config: EudiConfig,
  server: { publicBaseUrl: string; production: boolean },
  dataDir: string,
  now: Date,
): Promise<EudiTrust> {
  const host = new URL(server.publicBaseUrl).hostname;
  const identity = await loadIdentity(config, host, dataDir, server.production, now);
  const testIssuer = config.simulatorWallet
    ? await readOrWriteOnce(join(dataDir, 'eudi-test-pid-issuer.json'), () =>
        generateTestAuthority('eid-gateway Simulator PID issuer', now),
      )
    : null;
  return new EudiTrust(
    identity,
    {
      live: config.trustAnchors.live.map(toPkijs),
      test: [...config.trustAnchors.test, ...(testIssuer ? [testIssuer.ca.certificatePem] : [])].map(toPkijs),
    },
    testIssuer,
  );
}
