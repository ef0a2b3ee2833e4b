import { Inject, Injectable, Logger } from '@nestjs/common';
import { compactDecrypt, decodeProtectedHeader, importJWK } from 'jose';
import { Clock } from '../../common/clock/clock.js';
import { constantTimeEqual, sha256 } from '../../common/crypto/constant-time.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { isUuid } from '../../common/validation/is-uuid.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import type { CompletedIdentity } from '../eid-provider.js';
import { eudiEvidenceOf } from './eudi-evidence.js';
import { completionAad, returnUrlAad, secretsAad } from './eudi-order-encryption.js';
import { EudiOrderStore, type EudiOrderRow } from './eudi-order.store.js';
import { EUDI_TRUST, type EudiTrust } from './eudi-verifier-identity.js';
import { eudiConfig, type EudiConfig } from './eudi.config.js';
import { RESPONSE_ENCRYPTION, signedRequestObject, type PendingSecrets } from './openid4vp-request.js';
import { userFromPid } from './pid-claims.js';
import { PresentationRejected } from './presentation-checks.js';
import { verifyPresentation } from './sd-jwt-vc-verifier.js';
import { StatusListCheck } from './status-list.js';

/** What the response endpoint answers: 200 with the same-device redirect, or 400 with nothing changed. */
export type ResponseOutcome = { kind: 'answered'; redirectUri?: string } | { kind: 'refused'; description: string };

const refused = (description: string): ResponseOutcome => ({ kind: 'refused', description });
const MAX_RESPONSE_LENGTH = 256 * 1024;

/** The verifier's two endpoints (docs/eudi-wallet.md, "The flow"): the request object, and the wallet's response. */
@Injectable()
export class Openid4vpVerifier {
  private readonly logger = new Logger(Openid4vpVerifier.name);

  constructor(
    private readonly orders: EudiOrderStore,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    @Inject(EUDI_TRUST) private readonly enabledTrust: EudiTrust | null,
    private readonly statusLists: StatusListCheck,
    @Inject(eudiConfig.KEY) private readonly config: EudiConfig,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  /** The controller answers 404 while the wallet is not enabled; nothing reaches here then. */
  private get trust(): EudiTrust {
    if (!this.enabledTrust) throw new Error('The EUDI Wallet verifier is not enabled (PROVIDERS)');
    return this.enabledTrust;
  }

  get responseUri(): string {
    return `${this.server.publicBaseUrl}/openid4vp/response`;
  }

  requestUri(orderRef: string): string {
    return `${this.server.publicBaseUrl}/openid4vp/request/${orderRef}`;
  }

  /** The signed request object of a pending order, and the session shows `started`; null: none to serve. */
  async requestObject(orderRef: string): Promise<string | null> {
    const order = isUuid(orderRef) ? await this.orders.findByRef(orderRef) : undefined;
    if (!order || order.status !== 'pending' || !order.secretsEnc) return null;
    const secrets = this.cipher.decryptJson<PendingSecrets>(order.secretsEnc, secretsAad(orderRef));
    const now = this.clock.now();
    await this.orders.markRequestFetched(orderRef, now);
    return signedRequestObject({
      identity: this.trust.identity,
      orderRef,
      secrets,
      responseUri: this.responseUri,
      query: this.config.credentialQuery,
      now,
    });
  }

  /**
   * The wallet's `direct_post.jwt` answer (OpenID4VP 1.0, 8.3): the `response` JWE, decrypted with the
   * session's own key (its `kid` names the order) and checked in full; or a plain error response by its
   * `state`. Anything that cannot be tied to a pending order is refused and changes nothing.
   */
  async respond(body: Record<string, unknown>): Promise<ResponseOutcome> {
    if (typeof body.response === 'string') return this.encryptedResponse(body.response);
    if (typeof body.error === 'string' && typeof body.state === 'string') return this.errorResponse(body.error, body.state);
    // A vp_token in the clear is refused before anything is read from it: direct_post.jwt was asked for.
    return refused('The response must be encrypted (response_mode direct_post.jwt).');
  }

  private async encryptedResponse(jwe: string): Promise<ResponseOutcome> {
    if (jwe.length > MAX_RESPONSE_LENGTH) return refused('The response is too large.');
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(jwe).kid;
    } catch {
      return refused('The response is not a JWE.');
    }
    const order = typeof kid === 'string' && isUuid(kid) ? await this.orders.findByRef(kid) : undefined;
    if (!order || order.status !== 'pending' || !order.secretsEnc) return refused('The response answers no pending request.');
    const secrets = this.cipher.decryptJson<PendingSecrets>(order.secretsEnc, secretsAad(order.orderRef));
    let answer: Record<string, unknown>;
    try {
      const key = await importJWK(secrets.responseKey, RESPONSE_ENCRYPTION.alg);
      const { plaintext } = await compactDecrypt(jwe, key, {
        keyManagementAlgorithms: [RESPONSE_ENCRYPTION.alg],
        contentEncryptionAlgorithms: [...RESPONSE_ENCRYPTION.enc],
      });
      answer = JSON.parse(new TextDecoder().decode(plaintext)) as Record<string, unknown>;
    } catch {
      return refused('The response cannot be decrypted.');
    }
    if (typeof answer.state !== 'string' || !constantTimeEqual(sha256(answer.state), order.stateHash))
      return refused('The response answers no pending request.');
    if (typeof answer.error === 'string') return this.finishWithError(order, answer.error);
    return this.finishWithPresentation(order, secrets, answer.vp_token);
  }

  private async errorResponse(error: string, state: string): Promise<ResponseOutcome> {
    const order = await this.orders.findByStateHash(sha256(state));
    if (!order || order.status !== 'pending') return refused('The response answers no pending request.');
    return this.finishWithError(order, error);
  }

  private async finishWithError(order: EudiOrderRow, error: string): Promise<ResponseOutcome> {
    // The error code only: a description may quote the person.
    this.logger.warn({ orderRef: order.orderRef, error: error.slice(0, 64) }, 'The wallet answered with an error');
    const hintCode = error === 'access_denied' ? 'userCancel' : 'providerError';
    if (!(await this.orders.finish(order.orderRef, { status: 'failed', hintCode, completionEnc: null })))
      return refused('The response answers no pending request.');
    return { kind: 'answered', redirectUri: this.returnUrlOf(order) };
  }

  private async finishWithPresentation(order: EudiOrderRow, secrets: PendingSecrets, vpToken: unknown): Promise<ResponseOutcome> {
    const [query] = this.config.credentialQuery.credentials;
    const presentations = (vpToken as Record<string, unknown> | null)?.[query.id];
    const presentation: unknown = Array.isArray(presentations) && presentations.length === 1 ? presentations[0] : undefined;
    let completion: CompletedIdentity | null = null;
    let failedCheck: string | undefined;
    if (typeof presentation !== 'string') failedCheck = 'format';
    else
      try {
        const verified = await verifyPresentation(
          presentation,
          {
            vctValues: query.meta.vct_values,
            clientId: this.trust.identity.clientId,
            nonce: secrets.nonce,
            anchors: this.trust.anchorsFor(order.environment),
            now: this.clock.now(),
          },
          this.statusLists,
        );
        const user = userFromPid(verified.claims);
        if (user) completion = { user, evidence: eudiEvidenceOf(presentation, verified) };
        else failedCheck = 'claims';
      } catch (error) {
        if (!(error instanceof PresentationRejected)) throw error;
        failedCheck = error.check;
      }
    if (failedCheck) this.logger.warn({ orderRef: order.orderRef, check: failedCheck }, 'The presentation was rejected');
    const finished = await this.orders.finish(order.orderRef, {
      status: completion ? 'complete' : 'failed',
      hintCode: completion ? null : 'providerError',
      completionEnc: completion ? this.cipher.encryptJson(completion, completionAad(order.orderRef)) : null,
    });
    if (!finished) return refused('The response answers no pending request.');
    if (!completion) return refused('The presentation was not accepted.');
    return { kind: 'answered', redirectUri: this.returnUrlOf(order) };
  }

  private returnUrlOf(order: EudiOrderRow): string | undefined {
    return order.returnUrlEnc ? this.cipher.decrypt(order.returnUrlEnc, returnUrlAad(order.orderRef)) : undefined;
  }
}
