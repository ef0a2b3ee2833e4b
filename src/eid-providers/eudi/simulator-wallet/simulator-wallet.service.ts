import { createPrivateKey, X509Certificate } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { digest, ES256, generateSalt } from '@sd-jwt/crypto-nodejs';
import { CompactEncrypt, compactVerify, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { Clock } from '../../../common/clock/clock.js';
import { serverConfig, type ServerConfig } from '../../../config/server.config.js';
import { isUuid } from '../../../common/validation/is-uuid.js';
import { PID_VCT, type CredentialQuery } from '../dcql.js';
import { EUDI_TRUST, type EudiTrust } from '../eudi-verifier-identity.js';
import { Openid4vpVerifier } from '../openid4vp-verifier.service.js';

/** The simulator's test person, as a PID states them (docs/eudi-wallet.md, "The simulator wallet"). */
export const SIMULATOR_PID = {
  given_name: 'Tess',
  family_name: 'Testsson',
  birthdate: '1990-01-01',
  nationalities: ['SE'],
  personal_administrative_number: '199001011239',
  issuing_country: 'SE',
};

/** What the wallet shows before the person shares: who asks, and for what. */
export interface WalletRequestView {
  link: string;
  verifierName: string;
  verifierHost: string;
  claims: string[];
}

interface RequestClaims {
  client_id: string;
  nonce: string;
  state: string;
  dcql_query: CredentialQuery;
  client_metadata: { jwks: { keys: (JWK & { kid: string })[] } };
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const der = (pem: string) => new X509Certificate(pem).raw.toString('base64');

/**
 * A wallet for the test environment (docs/eudi-wallet.md, "The simulator wallet"): it reads the link,
 * checks the request object as a wallet does, and answers with a PID from the simulator's test issuer,
 * bound to a fresh device key, through the verifier's own response path. It runs in the service, so it
 * reads the request and posts the response in-process instead of over the network.
 */
@Injectable()
export class SimulatorWallet {
  constructor(
    private readonly verifier: Openid4vpVerifier,
    private readonly clock: Clock,
    @Inject(EUDI_TRUST) private readonly trust: EudiTrust | null,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  /** The request a link names, checked; null when it names no pending request of this service. */
  async read(link: string): Promise<WalletRequestView | null> {
    const request = await this.request(link);
    if (!request) return null;
    return {
      link,
      verifierName: request.verifierName,
      verifierHost: request.claims.client_id.replace(/^x509_san_dns:/, ''),
      claims: request.claims.dcql_query.credentials[0].claims.map((claim) => String(claim.path[0])),
    };
  }

  /** Shares the PID, or declines; the verifier's answer, or null when the link names no pending request. */
  async answer(link: string, action: 'share' | 'decline'): Promise<{ accepted: boolean; redirectUri?: string } | null> {
    const request = await this.request(link);
    if (!request || !this.trust?.testIssuer) return null;
    const { claims } = request;
    const answer =
      action === 'decline'
        ? { error: 'access_denied', state: claims.state }
        : { vp_token: await this.presentation(claims), state: claims.state };
    const [key] = claims.client_metadata.jwks.keys;
    const response = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(answer)))
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: key.kid })
      .encrypt(await importJWK(key, 'ECDH-ES'));
    const outcome = await this.verifier.respond({ response });
    return outcome.kind === 'answered' ? { accepted: action === 'share', redirectUri: outcome.redirectUri } : { accepted: false };
  }

  private async request(link: string): Promise<{ claims: RequestClaims; verifierName: string } | null> {
    const id = requestIdOf(link, this.verifier.requestUri(''));
    const jwt = id ? await this.verifier.requestObject(id) : null;
    if (!jwt) return null;
    // As a wallet: the signature by the x5c leaf, whose SAN is the client_id's host.
    const header = decodeProtectedHeader(jwt);
    const leaf = new X509Certificate(Buffer.from((header.x5c as string[])[0], 'base64'));
    const { payload } = await compactVerify(jwt, leaf.publicKey, { algorithms: ['ES256'] });
    const claims = JSON.parse(new TextDecoder().decode(payload)) as RequestClaims;
    if (!leaf.checkHost(claims.client_id.replace(/^x509_san_dns:/, ''), { subject: 'never' })) return null;
    return { claims, verifierName: this.trust?.identity.displayName ?? claims.client_id };
  }

  /** A PID of the simulator's person, issued now to a fresh device key and presented with a key-binding JWT. */
  private async presentation(request: RequestClaims): Promise<Record<string, string[]>> {
    const issuer = this.trust!.testIssuer!;
    const now = this.clock.now();
    const device = await generateKeyPair('ES256', { extractable: true });
    // The issuing library is the heaviest of the wallet's (about 4 MiB of heap with its JSON-schema
    // validator): loaded when the simulator wallet first presents, not by every process at start
    // (docs/performance.md, "Start-up").
    const { SDJwtVcInstance } = await import('@sd-jwt/sd-jwt-vc');
    const sdjwt = new SDJwtVcInstance({
      hasher: digest,
      hashAlg: 'sha-256',
      saltGenerator: generateSalt,
      signAlg: ES256.alg,
      signer: await ES256.getSigner(createPrivateKey(issuer.leaf.privateKeyPem).export({ format: 'jwk' })),
      kbSignAlg: ES256.alg,
      kbSigner: await ES256.getSigner(await exportJWK(device.privateKey)),
    });
    const credential = await sdjwt.issue(
      {
        iss: `${this.server.publicBaseUrl}/simulator/wallet/issuer`,
        vct: PID_VCT,
        iat: seconds(now),
        exp: seconds(now) + 86_400,
        cnf: { jwk: await exportJWK(device.publicKey) },
        ...SIMULATOR_PID,
      },
      { _sd: Object.keys(SIMULATOR_PID) as (keyof typeof SIMULATOR_PID)[] },
      { header: { x5c: [der(issuer.leaf.certificatePem)] } },
    );
    const [query] = request.dcql_query.credentials;
    const disclose = Object.fromEntries(query.claims.map((claim) => [String(claim.path[0]), true]));
    const presented = await sdjwt.present(credential, disclose, {
      kb: { payload: { aud: request.client_id, nonce: request.nonce, iat: seconds(now) } },
    });
    return { [query.id]: [presented] };
  }
}

/** The request id of an `openid4vp://` link whose request_uri is this service's; null for any other. */
export function requestIdOf(link: string, requestUriPrefix: string): string | null {
  if (link.length > 2048 || !URL.canParse(link)) return null;
  const url = new URL(link);
  const requestUri = url.searchParams.get('request_uri');
  if (url.protocol !== 'openid4vp:' || !requestUri?.startsWith(requestUriPrefix)) return null;
  const id = requestUri.slice(requestUriPrefix.length);
  return isUuid(id) ? id : null;
}
