import { createHash, createPrivateKey, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { CompactSign } from 'jose';

/**
 * A fake Freja eID Relying Party API (authentication 1.0, signature 1.0): HTTPS that demands the
 * RP's client certificate, Freja's form encoding (one parameter holding base64 of the JSON
 * request), its transaction statuses, its `{code, message}` errors and RS256-signed `details`.
 * It is an independent peer: nothing here imports the service's code. Tests play the user's app
 * through its methods, not through HTTP.
 */

export interface FakeFrejaOptions {
  key: string;
  cert: string;
  /** The CA that issues RP certificates: the handshake refuses any other. */
  clientCa: string;
  /** Subject CNs of the RPs that have an agreement; another RP certificate gets 1008 unknown RP. */
  authorizedClients: string[];
  /** Freja's result signer: `details` are signed with this key, x5t of this certificate. */
  signer: { key: string; cert: string };
  now?: () => Date;
}

export interface FakeFrejaUser {
  ssn: string;
  name: string;
  surname: string;
}

export const FAKE_FREJA_USER: FakeFrejaUser = { ssn: '199001012393', name: 'Frida', surname: 'Frejasson' };

type Operation = 'auth' | 'sign';
type Method = 'init' | 'getOneResult' | 'cancel';
type Status = 'STARTED' | 'DELIVERED_TO_MOBILE' | 'APPROVED' | 'CANCELED' | 'REJECTED' | 'RP_CANCELED' | 'EXPIRED';

export interface RecordedFrejaRequest {
  path: string;
  contentType: string | undefined;
  /** The form parameter's name, and its value decoded from base64 JSON. */
  parameter: string;
  request: Record<string, unknown>;
  clientCn: string | undefined;
}

export interface FakeTransaction {
  operation: Operation;
  reference: string;
  request: Record<string, unknown>;
  status: Status;
  createdAt: number;
  expiresAt: number;
  details?: string;
}

/** One injected answer for the next calls of a method: an error status and body. */
export interface FrejaFault {
  operation: Operation;
  method: Method;
  times: number;
  status: number;
  /** A Freja error code; without it the body is an HTML error page, as a proxy in front would send. */
  code?: number;
  message?: string;
}

const ROUTES: Record<string, { operation: Operation; method: Method; parameter: string }> = {
  '/authentication/1.0/initAuthentication': { operation: 'auth', method: 'init', parameter: 'initAuthRequest' },
  '/authentication/1.0/getOneResult': { operation: 'auth', method: 'getOneResult', parameter: 'getOneAuthResultRequest' },
  '/authentication/1.0/cancel': { operation: 'auth', method: 'cancel', parameter: 'cancelAuthRequest' },
  '/sign/1.0/initSignature': { operation: 'sign', method: 'init', parameter: 'initSignRequest' },
  '/sign/1.0/getOneResult': { operation: 'sign', method: 'getOneResult', parameter: 'getOneSignResultRequest' },
  '/sign/1.0/cancel': { operation: 'sign', method: 'cancel', parameter: 'cancelSignRequest' },
};
const REFERENCE = { auth: 'authRef', sign: 'signRef' } as const;

// Freja: the user has two minutes to confirm an authentication; a signature lasts as its expiry
// says (milliseconds since the epoch), two minutes when not given. Results are kept a while after.
const AUTH_LIFETIME_MS = 120_000;
const KEEP_RESULT_MS = 600_000;
const USER_INFO_TYPES = ['INFERRED', 'SSN', 'EMAIL', 'PHONE', 'UPI', 'ORG_ID'];
const LEVELS = ['BASIC', 'EXTENDED', 'PLUS'];
const FINAL: Status[] = ['APPROVED', 'CANCELED', 'REJECTED', 'RP_CANCELED', 'EXPIRED'];

class FrejaApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly status = 422,
  ) {
    super(message);
  }
}

export class FakeFrejaServer {
  readonly received: RecordedFrejaRequest[] = [];
  private readonly transactions = new Map<string, FakeTransaction>();
  private faults: FrejaFault[] = [];
  private readonly server: Server;
  private signerKey: KeyObject;
  private x5t: string;

  constructor(private readonly options: FakeFrejaOptions) {
    this.server = createServer(
      { key: options.key, cert: options.cert, ca: options.clientCa, requestCert: true, rejectUnauthorized: true },
      (req, res) => void this.answer(req, res),
    );
    ({ key: this.signerKey, x5t: this.x5t } = signerOf(options.signer));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Sign the next `details` with another key while naming the configured certificate: a forged result. */
  forgeSignaturesWith(signer: { key: string; cert: string }, options: { keepX5t: boolean } = { keepX5t: true }): void {
    const forged = signerOf(signer);
    this.signerKey = forged.key;
    if (!options.keepX5t) this.x5t = forged.x5t;
  }

  fail(fault: FrejaFault): void {
    this.faults.push(fault);
  }

  transaction(reference: string): FakeTransaction | undefined {
    return this.transactions.get(reference);
  }

  /** The newest transaction, for tests that start through the service. */
  latest(): FakeTransaction | undefined {
    return [...this.transactions.values()].at(-1);
  }

  /** The user's app opened the transaction (scanned the QR code or followed the link). */
  deliver(reference: string): void {
    const tx = this.pending(reference);
    tx.status = 'DELIVERED_TO_MOBILE';
  }

  async approve(reference: string, user: FakeFrejaUser = FAKE_FREJA_USER): Promise<void> {
    const tx = this.pending(reference);
    tx.details = await this.sign(tx, user);
    tx.status = 'APPROVED';
  }

  /** The user declined in the app. */
  decline(reference: string): void {
    this.pending(reference).status = 'CANCELED';
  }

  /** Freja refused the transaction for security reasons. */
  reject(reference: string): void {
    this.pending(reference).status = 'REJECTED';
  }

  private pending(reference: string): FakeTransaction {
    const tx = this.transactions.get(reference);
    if (!tx) throw new Error(`no transaction ${reference}`);
    this.expire(tx);
    if (FINAL.includes(tx.status)) throw new Error(`transaction ${reference} is ${tx.status}`);
    return tx;
  }

  private now(): number {
    return (this.options.now?.() ?? new Date()).getTime();
  }

  private expire(tx: FakeTransaction): void {
    if (!FINAL.includes(tx.status) && this.now() >= tx.expiresAt) tx.status = 'EXPIRED';
  }

  private async sign(tx: FakeTransaction, user: FakeFrejaUser): Promise<string> {
    const request = tx.request;
    const payload = {
      [REFERENCE[tx.operation]]: tx.reference,
      status: 'APPROVED',
      userInfoType: request.userInfoType,
      userInfo: request.userInfo,
      minRegistrationLevel: request.minRegistrationLevel,
      timestamp: this.now(),
      requestedAttributes: { basicUserInfo: { name: user.name, surname: user.surname }, ssn: { ssn: user.ssn, country: 'SE' } },
      ...(tx.operation === 'sign'
        ? {
            signatureType: request.signatureType,
            signatureData: { userSignature: `fake.${randomBytes(16).toString('base64url')}.sig`, certificateStatus: 'GOOD' },
          }
        : {}),
    };
    return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: 'RS256', x5t: this.x5t })
      .sign(this.signerKey);
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const route = ROUTES[req.url ?? ''];
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || !route) return reply(404, { code: 1000, message: 'Invalid parameters.' });
    try {
      const cn = (req.socket as TLSSocket).getPeerCertificate().subject?.CN;
      const clientCn = Array.isArray(cn) ? cn[0] : cn;
      const request = decodeForm(Buffer.concat(chunks).toString('utf8'), route.parameter);
      this.received.push({ path: req.url!, contentType: req.headers['content-type'], parameter: route.parameter, request, clientCn });
      const fault = this.faults.find((f) => f.operation === route.operation && f.method === route.method && f.times > 0);
      if (fault) {
        fault.times--;
        if (fault.code === undefined) {
          res.writeHead(fault.status, { 'content-type': 'text/html' });
          res.end('<html><body>Service Unavailable</body></html>');
          return;
        }
        return reply(fault.status, { code: fault.code, message: fault.message ?? 'Injected error.' });
      }
      if (!clientCn || !this.options.authorizedClients.includes(clientCn)) throw new FrejaApiError(1008, 'Unknown Relying party.');
      const answer = this[route.method](route.operation, request);
      if (answer === null) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
        return;
      }
      return reply(200, answer);
    } catch (error) {
      if (error instanceof FrejaApiError) return reply(error.status, { code: error.code, message: error.message });
      return reply(500, { code: 0, message: 'Internal error.' });
    }
  }

  private init(operation: Operation, request: Record<string, unknown>): Record<string, string> {
    const { userInfoType, userInfo, minRegistrationLevel, attributesToReturn } = request;
    if (typeof userInfoType !== 'string' || !USER_INFO_TYPES.includes(userInfoType))
      throw new FrejaApiError(1001, 'Invalid or missing userInfoType.');
    if (!validUserInfo(userInfoType, userInfo)) throw new FrejaApiError(1002, 'Invalid or missing userInfo.');
    if (minRegistrationLevel !== undefined && !LEVELS.includes(minRegistrationLevel as string))
      throw new FrejaApiError(1007, 'Invalid minimum registration level.');
    const attributes = Array.isArray(attributesToReturn) ? (attributesToReturn as { attribute?: unknown }[]).map((a) => a.attribute) : [];
    // SSN is only known for users whose identity was checked: BASIC cannot promise it.
    if (attributes.includes('SSN') && (minRegistrationLevel ?? 'BASIC') === 'BASIC')
      throw new FrejaApiError(operation === 'auth' ? 2002 : 3005, 'Invalid attributesToReturn parameter.');
    let lifetime = AUTH_LIFETIME_MS;
    if (operation === 'sign') {
      const { dataToSignType, signatureType, expiry } = request;
      const dataToSign = request.dataToSign as { text?: unknown; binaryData?: unknown } | undefined;
      if (dataToSignType !== 'SIMPLE_UTF8_TEXT' && dataToSignType !== 'EXTENDED_UTF8_TEXT')
        throw new FrejaApiError(3000, 'Invalid or missing dataToSignType.');
      if (
        typeof dataToSign?.text !== 'string' ||
        !isBase64(dataToSign.text) ||
        (dataToSignType === 'EXTENDED_UTF8_TEXT' && !isBase64(dataToSign.binaryData))
      )
        throw new FrejaApiError(3001, 'Invalid or missing dataToSign.');
      if (signatureType !== (dataToSignType === 'SIMPLE_UTF8_TEXT' ? 'SIMPLE' : 'EXTENDED'))
        throw new FrejaApiError(3002, 'Invalid or missing signatureType.');
      if (expiry !== undefined) {
        if (typeof expiry !== 'number' || expiry <= this.now()) throw new FrejaApiError(3003, 'Invalid expiry.');
        lifetime = expiry - this.now();
      }
    }
    const reference = randomBytes(48).toString('base64url');
    const createdAt = this.now();
    this.transactions.set(reference, { operation, reference, request, status: 'STARTED', createdAt, expiresAt: createdAt + lifetime });
    return { [REFERENCE[operation]]: reference };
  }

  private getOneResult(operation: Operation, request: Record<string, unknown>): Record<string, string> {
    const tx = this.find(operation, request);
    const body: Record<string, string> = { [REFERENCE[operation]]: tx.reference, status: tx.status };
    if (tx.status === 'APPROVED' && tx.details) body.details = tx.details;
    return body;
  }

  private cancel(operation: Operation, request: Record<string, unknown>): null {
    const tx = this.find(operation, request);
    if (FINAL.includes(tx.status)) throw new FrejaApiError(1100, 'Invalid reference (for example, nonexistent or expired).');
    tx.status = 'RP_CANCELED';
    return null;
  }

  private find(operation: Operation, request: Record<string, unknown>): FakeTransaction {
    const tx = this.transactions.get(String(request[REFERENCE[operation]]));
    if (!tx || tx.operation !== operation) throw new FrejaApiError(1100, 'Invalid reference (for example, nonexistent or expired).');
    this.expire(tx);
    if (FINAL.includes(tx.status) && this.now() >= tx.expiresAt + KEEP_RESULT_MS) {
      this.transactions.delete(tx.reference);
      throw new FrejaApiError(1100, 'Invalid reference (for example, nonexistent or expired).');
    }
    return tx;
  }
}

/** `NAME=<base64 JSON>` with Freja's parameter name; anything else is a request Freja cannot read. */
function decodeForm(body: string, parameter: string): Record<string, unknown> {
  const prefix = `${parameter}=`;
  if (!body.startsWith(prefix) || !isBase64(body.slice(prefix.length)))
    throw new FrejaApiError(1010, 'JSON request cannot be parsed.', 400);
  try {
    const json: unknown = JSON.parse(Buffer.from(body.slice(prefix.length), 'base64').toString('utf8'));
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('not an object');
    return json as Record<string, unknown>;
  } catch {
    throw new FrejaApiError(1010, 'JSON request cannot be parsed.', 400);
  }
}

function isBase64(text: unknown): boolean {
  return typeof text === 'string' && text.length > 0 && text.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(text);
}

function validUserInfo(type: string, userInfo: unknown): boolean {
  if (typeof userInfo !== 'string' || userInfo.length === 0 || userInfo.length > 256) return false;
  if (type === 'INFERRED') return userInfo === 'N/A';
  if (type !== 'SSN') return true;
  try {
    const ssn = JSON.parse(Buffer.from(userInfo, 'base64').toString('utf8')) as { country?: unknown; ssn?: unknown };
    return typeof ssn.country === 'string' && typeof ssn.ssn === 'string' && /^\d{10,12}$/.test(ssn.ssn);
  } catch {
    return false;
  }
}

function signerOf(signer: { key: string; cert: string }): { key: KeyObject; x5t: string } {
  return { key: createPrivateKey(signer.key), x5t: createHash('sha1').update(new X509Certificate(signer.cert).raw).digest('base64url') };
}
