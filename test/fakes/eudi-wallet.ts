// A holder's EUDI Wallet and a PID issuer, for the verifier's tests (docs/eudi-wallet.md, "Tests"): the
// issuer's CA is a real X.509 CA made with @peculiar/x509, the PID a real SD-JWT VC made with
// @sd-jwt/sd-jwt-vc, the response a real JWE made with jose. Each forgery is one option of present().
import 'reflect-metadata';
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ES256, digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { StatusList, createHeaderAndPayload } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { CompactEncrypt, SignJWT, compactVerify, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { generateTestAuthority, type TestAuthority } from '../../src/eid-providers/eudi/test-authorities.js';

export const TEST_PID = {
  given_name: 'Erika',
  family_name: 'Mustermann',
  birthdate: '1984-01-26',
  nationalities: ['SE'],
  personal_administrative_number: '198401262383',
  issuing_country: 'SE',
};

const der = (pem: string) => new X509Certificate(pem).raw.toString('base64');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A PID issuer: a CA, a signing certificate under it, and a status list it publishes over HTTP. */
export class FakePidIssuer {
  private readonly revoked = new Set<number>();
  private server?: Server;
  statusListUri = '';

  private constructor(readonly authority: TestAuthority) {}

  static async create(name: string, now = new Date()): Promise<FakePidIssuer> {
    return new FakePidIssuer(await generateTestAuthority(name, now));
  }

  get caPem(): string {
    return this.authority.ca.certificatePem;
  }

  private get signingKey(): KeyObject {
    return createPrivateKey(this.authority.leaf.privateKeyPem);
  }

  /** Serves the status list token (typ statuslist+jwt) on loopback, as an issuer publishes it. */
  async listen(): Promise<void> {
    this.server = createServer((_request, response) => {
      void this.statusListToken().then((token) => response.writeHead(200, { 'content-type': 'application/statuslist+jwt' }).end(token));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.statusListUri = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/status/1`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  revoke(index: number): void {
    this.revoked.add(index);
  }

  private async statusListToken(): Promise<string> {
    const list = new StatusList(
      Array.from({ length: 64 }, (_, i) => (this.revoked.has(i) ? 1 : 0)),
      1,
    );
    const { header, payload } = createHeaderAndPayload(
      list,
      { iss: 'https://pid-issuer.test', sub: this.statusListUri, iat: seconds(new Date()) },
      { alg: 'ES256', typ: 'statuslist+jwt', x5c: [der(this.authority.leaf.certificatePem)] },
    );
    return new SignJWT(payload).setProtectedHeader(header).sign(this.signingKey);
  }

  /** A PID bound to the holder's key, every claim selectively disclosable. */
  async issue(holder: JWK, options: { expiresAt?: Date; statusIndex?: number; now?: Date } = {}): Promise<string> {
    const now = options.now ?? new Date();
    const sdjwt = new SDJwtVcInstance({
      hasher: digest,
      hashAlg: 'sha-256',
      saltGenerator: generateSalt,
      signAlg: ES256.alg,
      signer: await ES256.getSigner(this.signingKey.export({ format: 'jwk' })),
    });
    return sdjwt.issue(
      {
        iss: 'https://pid-issuer.test',
        vct: 'urn:eudi:pid:1',
        iat: seconds(now),
        exp: seconds(options.expiresAt ?? new Date(now.getTime() + 365 * 86_400_000)),
        cnf: { jwk: holder },
        ...(options.statusIndex === undefined ? {} : { status: { status_list: { idx: options.statusIndex, uri: this.statusListUri } } }),
        ...TEST_PID,
      },
      { _sd: Object.keys(TEST_PID) as (keyof typeof TEST_PID)[] },
      { header: { x5c: [der(this.authority.leaf.certificatePem)] } },
    );
  }
}

/** The request object's claims, as a wallet reads them after checking the verifier's signature. */
export interface PresentationRequest {
  client_id: string;
  response_uri: string;
  response_mode: string;
  nonce: string;
  state: string;
  dcql_query: { credentials: { id: string; claims: { path: string[] }[] }[] };
  client_metadata: { jwks: { keys: (JWK & { kid: string })[] } };
  /** The verifier's access certificate, from `x5c`. */
  verifierCertificate: X509Certificate;
  header: Record<string, unknown>;
}

/** How a presentation departs from an honest one: each option is one forgery. */
export interface PresentOptions {
  nonce?: string;
  aud?: string;
  withoutKeyBinding?: boolean;
  /** The key-binding JWT signed by a key other than the credential's cnf.jwk. */
  keyBindingByAnotherKey?: boolean;
  /** A disclosure's value changed after issuance (the family name). */
  tamperDisclosure?: boolean;
  /** The vp_token posted in the clear instead of in the JWE. */
  unencrypted?: boolean;
}

/** A holder: a device key, a PID, and the OpenID4VP 1.0 moves of a wallet. */
export class FakeEudiWallet {
  credential = '';

  private constructor(
    private readonly holderPrivate: JWK,
    readonly holderPublic: JWK,
  ) {}

  static async create(): Promise<FakeEudiWallet> {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    return new FakeEudiWallet(await exportJWK(privateKey), await exportJWK(publicKey));
  }

  /** Reads `openid4vp://?client_id=…&request_uri=…`; `fetch` gets the request object by its path. */
  async open(link: string, fetch: (path: string) => Promise<{ status: number; text: string; contentType?: string }>) {
    const url = new URL(link);
    if (url.protocol !== 'openid4vp:') throw new Error('not an openid4vp link');
    const requestUri = new URL(url.searchParams.get('request_uri')!);
    const answer = await fetch(requestUri.pathname);
    if (answer.status !== 200) throw new Error(`the request object answered ${answer.status}`);
    return this.readRequest(answer.text, url.searchParams.get('client_id')!);
  }

  /** The request object, checked as a wallet checks it: its signature by the x5c leaf, whose SAN is the client_id's host. */
  async readRequest(jwt: string, clientId: string): Promise<PresentationRequest> {
    const header = decodeProtectedHeader(jwt);
    const verifierCertificate = new X509Certificate(Buffer.from((header.x5c as string[])[0], 'base64'));
    const { payload } = await compactVerify(jwt, verifierCertificate.publicKey, { algorithms: ['ES256'] });
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Omit<PresentationRequest, 'verifierCertificate' | 'header'>;
    if (header.typ !== 'oauth-authz-req+jwt' || claims.client_id !== clientId) throw new Error('the request object is not for this link');
    if (!verifierCertificate.checkHost(clientId.replace(/^x509_san_dns:/, ''), { subject: 'never' }))
      throw new Error("the client_id's host is not the access certificate's");
    return { ...claims, verifierCertificate, header };
  }

  /** The form body of the wallet's response to `request`, honest unless an option says otherwise. */
  async respond(request: PresentationRequest, options: PresentOptions = {}): Promise<Record<string, string>> {
    const [query] = request.dcql_query.credentials;
    const disclose = Object.fromEntries(query.claims.map((claim) => [claim.path[0], true]));
    const kbKey = options.keyBindingByAnotherKey
      ? await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey)
      : this.holderPrivate;
    const holder = new SDJwtVcInstance({ hasher: digest, kbSignAlg: ES256.alg, kbSigner: await ES256.getSigner(kbKey) });
    let presented = await holder.present(this.credential, disclose, {
      kb: options.withoutKeyBinding
        ? undefined
        : { payload: { aud: options.aud ?? request.client_id, nonce: options.nonce ?? request.nonce, iat: seconds(new Date()) } },
    });
    if (options.tamperDisclosure) presented = tamperFamilyName(presented);
    const answer = { vp_token: { [query.id]: [presented] }, state: request.state };
    if (options.unencrypted) return { vp_token: JSON.stringify(answer.vp_token), state: request.state };
    return { response: await this.encrypt(request, answer) };
  }

  /** The person declines: an access_denied error, encrypted as the response mode asks. */
  async decline(request: PresentationRequest): Promise<Record<string, string>> {
    return { response: await this.encrypt(request, { error: 'access_denied', state: request.state }) };
  }

  private async encrypt(request: PresentationRequest, answer: object): Promise<string> {
    const [key] = request.client_metadata.jwks.keys;
    return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(answer)))
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: key.kid })
      .encrypt(await importJWK(key, 'ECDH-ES'));
  }
}

/** The presentation with the family name's disclosure rewritten: its digest no longer matches the signed one. */
function tamperFamilyName(presentation: string): string {
  const parts = presentation.split('~');
  for (let i = 1; i < parts.length - 1; i++) {
    const decoded = JSON.parse(Buffer.from(parts[i], 'base64url').toString('utf8')) as unknown[];
    if (decoded[1] === 'family_name') parts[i] = Buffer.from(JSON.stringify([decoded[0], 'family_name', 'Forged'])).toString('base64url');
  }
  return parts.join('~');
}
