import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { API_KEY_ENVIRONMENTS, type ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { Clock } from '../../common/clock/clock.js';
import { sha256 } from '../../common/crypto/constant-time.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { certificateStatus, type CertificateStatus } from '../rp-certificate.check.js';
import type {
  CollectResult,
  CompletedIdentity,
  EidChannel,
  EidOperation,
  EidProvider,
  OpenIdFace,
  OrderReference,
  StartOrderRequest,
  StartedOrder,
  EvidenceProfile,
} from '../eid-provider.js';
import { eudiEvidenceProfile } from './eudi-evidence.js';
import { completionAad, returnUrlAad, secretsAad } from './eudi-order-encryption.js';
import { EudiOrderStore } from './eudi-order.store.js';
import { EUDI_USER_MESSAGES } from './eudi-user-messages.js';
import { EUDI_TRUST, type EudiTrust } from './eudi-verifier-identity.js';
import { newPendingSecrets, walletLink } from './openid4vp-request.js';
import { Openid4vpVerifier } from './openid4vp-verifier.service.js';

// On the OpenID front a wallet login is asked for by its own acr; no CIBA (a wallet has no back channel).
const EUDI_OPENID: OpenIdFace = {
  displayName: 'EU Digital Identity Wallet',
  acrValues: [{ acr: 'urn:eidgw:eudi', device: 'either' }],
  amr: () => ['eudi'],
};

/**
 * The EU Digital Identity Wallet as an e-ID (docs/eudi-wallet.md): an OpenID4VP 1.0 verifier of SD-JWT
 * VC credentials. Start makes a request for the wallet to fetch by reference; the wallet's response is
 * checked at /openid4vp/response and recorded on the order; collect reads it.
 */
@Injectable()
export class EudiProvider implements EidProvider {
  readonly name = 'eudi';
  readonly kind = 'openid4vp';
  readonly messages = EUDI_USER_MESSAGES;
  readonly evidence: EvidenceProfile;
  /** A static QR: the wallet link, which also opens a wallet on this device (as Freja's app link). */
  readonly qr = { kind: 'static', data: (orderRef: string) => this.link(orderRef) } as const;
  readonly openId = EUDI_OPENID;

  constructor(
    private readonly orders: EudiOrderStore,
    private readonly verifier: Openid4vpVerifier,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    @Inject(EUDI_TRUST) private readonly trust: EudiTrust | null,
  ) {
    this.evidence = eudiEvidenceProfile(() => trust, clock);
  }

  /** Test keys always (the simulator wallet or EUDI_TEST_TRUST_ANCHORS); live keys once live anchors are configured. */
  supports(environment: ApiKeyEnvironment): boolean {
    return this.trust !== null && this.trust.anchorsFor(environment).length > 0;
  }

  offers(operation: EidOperation, channel: EidChannel): boolean {
    return operation === 'auth' && channel === 'app';
  }

  async start(request: StartOrderRequest): Promise<StartedOrder> {
    const orderRef = randomUUID();
    const secrets = await newPendingSecrets();
    const createdAt = this.clock.now();
    await this.orders.insert({
      orderRef,
      environment: request.environment,
      stateHash: sha256(secrets.state),
      secretsEnc: this.cipher.encryptJson(secrets, secretsAad(orderRef)),
      returnUrlEnc: request.returnUrl ? this.cipher.encrypt(request.returnUrl, returnUrlAad(orderRef)) : null,
      createdAt,
    });
    return { orderRef, orderTime: createdAt, launchUrl: this.link(orderRef) };
  }

  async collect({ orderRef }: OrderReference): Promise<CollectResult> {
    const order = await this.orders.findByRef(orderRef);
    if (!order) return { status: 'failed', hintCode: 'expiredTransaction' };
    if (order.status === 'pending') return { status: 'pending', hintCode: order.requestFetchedAt ? 'started' : 'outstandingTransaction' };
    if (order.status === 'failed' || !order.completionEnc) return { status: 'failed', hintCode: order.hintCode ?? 'providerError' };
    return { status: 'complete', completion: this.cipher.decryptJson<CompletedIdentity>(order.completionEnc, completionAad(orderRef)) };
  }

  async cancel({ orderRef }: OrderReference): Promise<void> {
    await this.orders.finish(orderRef, { status: 'failed', hintCode: 'cancelled', completionEnc: null });
  }

  async purgeOrdersCreatedBefore(createdBefore: Date): Promise<void> {
    await this.orders.purgeCreatedBefore(createdBefore);
  }

  async forgetCompletion({ orderRef }: OrderReference): Promise<void> {
    await this.orders.forgetCompletion(orderRef);
  }

  /** The access certificate, once per environment it serves (docs/operations.md, readiness). */
  certificateStatuses(): CertificateStatus[] {
    if (!this.trust) return [];
    const now = this.clock.now();
    return API_KEY_ENVIRONMENTS.filter((environment) => this.supports(environment)).map((environment) =>
      certificateStatus(environment, this.trust!.identity.certificate, now),
    );
  }

  private link(orderRef: string): string {
    return walletLink(this.trust?.identity.clientId ?? '', this.verifier.requestUri(orderRef));
  }
}
